import Synchronization
import Testing
import Unimplemented

@testable import UnimplementedTesting

@Suite struct UnimplementedTests {
  @Test func theErrorNamesTheEndpoint() {
    withKnownIssue {
      #expect(
        unimplemented("CounterService.count").description
          == "CounterService.count was called, but no test expected it")
    }
  }

  /// The name `unimplemented` looks the reporter up by is the reporter's.
  @Test func theTestReporterIsFoundByItsName() {
    #expect(
      _mangledTypeName(TestIssueReporter.self) == "20UnimplementedTesting17TestIssueReporterO")
    #expect(_typeByName("20UnimplementedTesting17TestIssueReporterO") == TestIssueReporter.self)
  }

  @Test func aCallIsAnIssueEvenWhenItsErrorIsSwallowed() {
    withKnownIssue(
      "the swallowed call",
      isIntermittent: false,
      {
        _ = try? { () throws(UnimplementedCall) in throw unimplemented("X.swallowed") }()
      },
      matching: { issue in
        issue.comments.contains("X.swallowed was called, but no test expected it")
      })
  }

  @Test func aCallFromAChildTaskIsAnIssueOfTheTest() async {
    await withKnownIssue {
      await Task { _ = unimplemented("X.fromATask") }.value
    }
  }

  @Test func aReporterSetForTheTaskTakesTheCallsInstead() {
    let calls = Calls()
    let report: @Sendable (UnimplementedCall) -> Void = { calls.append($0) }
    UnimplementedCalls.$report.withValue(report) {
      _ = unimplemented("X.y")
    }
    #expect(calls.all == [UnimplementedCall(endpoint: "X.y")])
  }
}

/// The calls a reporter got.
private final class Calls: Sendable {
  private let calls = Mutex<[UnimplementedCall]>([])
  func append(_ call: UnimplementedCall) { calls.withLock { $0.append(call) } }
  var all: [UnimplementedCall] { calls.withLock { $0 } }
}
