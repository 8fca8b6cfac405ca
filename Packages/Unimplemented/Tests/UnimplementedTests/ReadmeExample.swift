import Testing
import Unimplemented

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`):
/// an interface's failing double, and a test in which a call to it is an issue. The test
/// target depends on `UnimplementedTesting`; nothing else is needed.
private struct Greeter: Sendable {
  var greet: @Sendable (String) async throws -> String
}

// snippet: readme
extension Greeter {
  static let failing = Greeter(greet: { _ in throw unimplemented("Greeter.greet") })
}

@Suite struct GreeterTests {
  @Test func anUnimplementedCallIsAnIssueEvenWhenItsErrorIsSwallowed() async {
    await withKnownIssue {
      _ = try? await Greeter.failing.greet("you")
    }
  }
}
// end
