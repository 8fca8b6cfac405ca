extension DownloadClient {
  /// A client that a test did not expect to be used: every endpoint throws, and `events`
  /// ends at once.
  public static let failing = DownloadClient(
    start: { _ in throw UnexpectedDownloadClientCall(endpoint: "start") },
    pause: { _ in throw UnexpectedDownloadClientCall(endpoint: "pause") },
    resume: { _ in throw UnexpectedDownloadClientCall(endpoint: "resume") },
    cancel: { _ in throw UnexpectedDownloadClientCall(endpoint: "cancel") },
    cancelAll: { throw UnexpectedDownloadClientCall(endpoint: "cancelAll") },
    list: { throw UnexpectedDownloadClientCall(endpoint: "list") },
    events: { AsyncStream { $0.finish() } }
  )
}

/// Thrown by the endpoints of `DownloadClient.failing`.
public struct UnexpectedDownloadClientCall: Error, Equatable, CustomStringConvertible {
  public let endpoint: String

  public init(endpoint: String) {
    self.endpoint = endpoint
  }

  public var description: String {
    "DownloadClient.\(endpoint) was called, but no test expected it"
  }
}
