import ResponseCodeStore
import Testing

/// What this package adds to `Store` is a name: the key the last code is kept under in every
/// store's file. An earlier run's code is found only under the same name.
@Suite struct ResponseCodeStoreTests {
  @Test func theLastCodeIsKeptUnderTheNameEarlierRunsUsed() {
    #expect(ResponseCodeStore.lastResponseCodeKey == "lastResponseCode")
  }
}
