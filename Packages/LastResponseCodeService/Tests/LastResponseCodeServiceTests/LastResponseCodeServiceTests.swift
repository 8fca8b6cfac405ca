import Foundation
import LastResponseCodeService
import Testing
import Unimplemented

@Suite struct LastResponseCodeServiceMockTests {
  @Test func inMemoryKeepsTheLastCode() async throws {
    let service = LastResponseCodeService.inMemory()
    let code = UUID()
    #expect(try await service.load() == nil)
    try await service.update(code)
    #expect(try await service.load() == code)
    try await service.clear()
    #expect(try await service.load() == nil)
  }

  @Test func failingThrowsOnEveryEndpoint() async throws {
    // Each call is an issue of this test (a known one here), besides the error it throws.
    await withKnownIssue {
      await #expect(throws: UnimplementedCall(endpoint: "LastResponseCodeService.load")) {
        try await LastResponseCodeService.failing.load()
      }
      await #expect(throws: UnimplementedCall(endpoint: "LastResponseCodeService.update")) {
        try await LastResponseCodeService.failing.update(UUID())
      }
      await #expect(throws: UnimplementedCall(endpoint: "LastResponseCodeService.clear")) {
        try await LastResponseCodeService.failing.clear()
      }
    }
  }
}
