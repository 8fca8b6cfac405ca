import CounterService
import Testing
import Unimplemented

@Suite struct CounterServiceMockTests {
  @Test func inMemoryCountsFromNil() async throws {
    let counter = CounterService.inMemory()
    #expect(try await counter.count() == nil)
    #expect(try await counter.increment() == 1)
    #expect(try await counter.increment() == 2)
    #expect(try await counter.count() == 2)
    try await counter.reset()
    #expect(try await counter.count() == nil)
  }

  @Test func failingThrowsOnEveryEndpoint() async throws {
    // Each call is an issue of this test (a known one here), besides the error it throws.
    await withKnownIssue {
      await #expect(throws: UnimplementedCall(endpoint: "CounterService.count")) {
        try await CounterService.failing.count()
      }
      await #expect(throws: UnimplementedCall(endpoint: "CounterService.increment")) {
        try await CounterService.failing.increment()
      }
      await #expect(throws: UnimplementedCall(endpoint: "CounterService.reset")) {
        try await CounterService.failing.reset()
      }
    }
  }
}
