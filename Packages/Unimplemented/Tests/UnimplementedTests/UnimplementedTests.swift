import Testing
import Unimplemented
import UnimplementedTesting

@Suite struct UnimplementedTests {
  @Test func theErrorNamesTheEndpoint() {
    #expect(
      unimplemented("CounterService.count").description
        == "CounterService.count was called, but no test expected it")
  }

  @Test func withoutTheTraitACallIsOnlyThrown() {
    #expect(UnimplementedCalls.report == nil)
    #expect(unimplemented("X.y") == UnimplementedCall(endpoint: "X.y"))
  }

  @Test(.unimplementedCallsFail) func theTraitRecordsACallEvenWhenItsErrorIsSwallowed() {
    withKnownIssue {
      _ = try? { () throws(UnimplementedCall) in throw unimplemented("X.swallowed") }()
    }
  }

  @Test(.unimplementedCallsFail) func theTraitReachesChildTasks() async {
    await withKnownIssue {
      await Task { _ = unimplemented("X.fromATask") }.value
    }
  }
}
