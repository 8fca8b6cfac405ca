import Testing
import Unimplemented

/// A trait that makes every unimplemented call during a test (or each test of a suite) a
/// recorded issue, however the code under test handles the error it throws.
///
/// ```swift
/// @Suite(.unimplementedCallsFail) struct ViewModelTests { … }
/// ```
public struct UnimplementedCallsFail: TestTrait, SuiteTrait, TestScoping {
  public var isRecursive: Bool { true }

  public func provideScope(
    for test: Test, testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    let record: @Sendable (UnimplementedCall) -> Void = { call in Issue.record("\(call)") }
    try await UnimplementedCalls.$report.withValue(record) { try await function() }
  }
}

extension Trait where Self == UnimplementedCallsFail {
  /// Every unimplemented call is a recorded issue.
  public static var unimplementedCallsFail: Self { Self() }
}
