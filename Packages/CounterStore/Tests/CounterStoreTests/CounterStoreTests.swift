import CounterStore
import Testing

@Suite struct CounterStoreTests {
  @Test func roundTripsTheCountInMemory() async throws {
    let store = CounterStore.inMemory()
    #expect(try await store.load(CounterStore.timesFetchedKey) == nil)
    try await store.save(CounterStore.timesFetchedKey, 4)
    #expect(try await store.load(CounterStore.timesFetchedKey) == 4)
  }
}
