import Testing
import Unimplemented

/// Records each unimplemented call as an issue of the running test, however the code under
/// test handles the error it throws; calls from child tasks count too. `unimplemented` finds
/// this type by its name: a test target that depends on `UnimplementedTesting` needs nothing
/// more.
enum TestIssueReporter: UnimplementedCallReporter {
  static func report(_ call: UnimplementedCall) {
    Issue.record("\(call)")
  }
}
