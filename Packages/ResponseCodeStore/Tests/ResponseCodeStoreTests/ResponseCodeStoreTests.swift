import Foundation
import ResponseCodeStore
import Testing

@Suite struct ResponseCodeStoreTests {
  @Test func roundTripsTheLastCodeInMemory() async throws {
    let store = ResponseCodeStore.inMemory()
    let code = UUID()
    #expect(try await store.load(ResponseCodeStore.lastResponseCodeKey) == nil)
    try await store.save(ResponseCodeStore.lastResponseCodeKey, code)
    #expect(try await store.load(ResponseCodeStore.lastResponseCodeKey) == code)
  }
}
