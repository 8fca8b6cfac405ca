/// The error of a test double's endpoint that the test did not expect to be called.
public struct UnimplementedCall: Error, Equatable, Sendable, CustomStringConvertible {
  /// The endpoint, as `Interface.endpoint` (`CounterService.increment`).
  public let endpoint: String

  public init(endpoint: String) {
    self.endpoint = endpoint
  }

  public var description: String { "\(endpoint) was called, but no test expected it" }
}

/// Where unimplemented calls are reported, beside being thrown: a view model that catches
/// every error into its state would otherwise hide them. `UnimplementedTesting`'s
/// `.unimplementedCallsFail` trait sets it to record a test issue; child tasks inherit it.
public enum UnimplementedCalls {
  @TaskLocal public static var report: (@Sendable (UnimplementedCall) -> Void)?
}

/// Reports a call of `endpoint` that no test expected, and returns the error to throw:
/// `.failing` doubles write `{ throw unimplemented("CounterService.count") }`.
public func unimplemented(_ endpoint: String) -> UnimplementedCall {
  let call = UnimplementedCall(endpoint: endpoint)
  UnimplementedCalls.report?(call)
  return call
}
