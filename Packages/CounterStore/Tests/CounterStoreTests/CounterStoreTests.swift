import CounterStore
import Testing

/// What this package adds to `Store` is a name: the key the count is kept under in every
/// store's file. An earlier run's count is found only under the same name.
@Suite struct CounterStoreTests {
  @Test func theCountIsKeptUnderTheNameEarlierRunsUsed() {
    #expect(CounterStore.timesFetchedKey == "timesFetched")
  }
}
