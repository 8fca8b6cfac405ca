/// The error of a test double's endpoint that the test did not expect to be called.
public struct UnimplementedCall: Error, Equatable, Sendable, CustomStringConvertible {
  /// The endpoint, as `Interface.endpoint` (`CounterService.increment`).
  public let endpoint: String

  public init(endpoint: String) {
    self.endpoint = endpoint
  }

  public var description: String { "\(endpoint) was called, but no test expected it" }
}

/// Where unimplemented calls are reported, beside being thrown (a view model that catches
/// every error into its state would otherwise hide them). By default, in a process that links
/// `UnimplementedTesting` (a test target that depends on it), each call is a recorded issue of
/// the running test; elsewhere it is only thrown. `report` takes the calls instead, for the
/// task that sets it and its child tasks.
public enum UnimplementedCalls {
  @TaskLocal public static var report: (@Sendable (UnimplementedCall) -> Void)?
}

/// Reports unimplemented calls when `UnimplementedCalls.report` is not set. `UnimplementedTesting`
/// has the one that records test issues; this package finds it by its name at run time, so
/// that code which ships never links the testing library.
public protocol UnimplementedCallReporter {
  static func report(_ call: UnimplementedCall)
}

/// The mangled name of `UnimplementedTesting.TestIssueReporter`, as `_typeByName` takes it.
let testIssueReporterName = "20UnimplementedTesting17TestIssueReporterO"

/// Reports a call of `endpoint` that no test expected, and returns the error to throw:
/// `.failing` doubles write `{ throw unimplemented("CounterService.count") }`.
public func unimplemented(_ endpoint: String) -> UnimplementedCall {
  let call = UnimplementedCall(endpoint: endpoint)
  if let report = UnimplementedCalls.report {
    report(call)
  } else if let reporter = _typeByName(testIssueReporterName) as? any UnimplementedCallReporter.Type
  {
    reporter.report(call)
  }
  return call
}
