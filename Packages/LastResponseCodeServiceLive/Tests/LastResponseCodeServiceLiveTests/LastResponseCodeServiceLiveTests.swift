import Foundation
import LastResponseCodeService
import LastResponseCodeServiceLive
import ResponseCodeStore
import Store
import Testing

@Suite struct LastResponseCodeServiceLiveTests {
  @Test func keepsTheCodeInTheStore() async throws {
    let store = ResponseCodeStore.inMemory()
    let service = LastResponseCodeService.live(store: store)
    let first = UUID()
    let second = UUID()
    #expect(try await service.load() == nil)
    try await service.update(first)
    try await service.update(second)
    #expect(try await service.load() == second)
    #expect(try await store.load(ResponseCodeStore.lastResponseCodeKey) == second)
    try await service.clear()
    #expect(try await store.load(ResponseCodeStore.lastResponseCodeKey) == nil)
  }

  @Test func storeFailuresReachTheCaller() async throws {
    // Each call is an issue of this test (a known one here), besides the error it throws.
    await withKnownIssue {
      await #expect {
        try await LastResponseCodeService.live(store: .failing).load()
      } throws: { "\($0)" == "Store.load was called, but no test expected it" }
    }
  }
}
