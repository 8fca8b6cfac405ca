import Testing
import Unimplemented
import UnimplementedTesting

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`):
/// an interface's failing double, and a suite in which a call to it is an issue.
private struct Greeter: Sendable {
  var greet: @Sendable (String) async throws -> String
}

// snippet: readme
extension Greeter {
  static let failing = Greeter(greet: { _ in throw unimplemented("Greeter.greet") })
}

@Suite(.unimplementedCallsFail) struct GreeterTests {
  @Test func aSuiteWithTheTraitRecordsEveryUnimplementedCall() async {
    await withKnownIssue {
      _ = try? await Greeter.failing.greet("you")
    }
  }
}
// end
