import Foundation

extension DataFetchViewModel {
  /// What the fetcher screen shows. Nested, so that it does not clash with SwiftUI's `State`.
  public struct State: Equatable, Sendable {
    /// The last response code fetched, if any.
    public var responseCode: UUID?
    /// The number of successful fetches.
    public var timesFetched: Int
    /// The message shown after a failure, cleared by the next fetch.
    public var errorMessage: String?
    /// The underlying cause of the failure, for the command line and logs.
    public var errorCause: String?
    /// Whether the server was last seen unreachable.
    public var isOffline: Bool
    /// Whether a failed fetch waits for the server to come back, to run again.
    public var isWaitingForServer: Bool

    public init(
      responseCode: UUID? = nil, timesFetched: Int = 0, errorMessage: String? = nil,
      errorCause: String? = nil, isOffline: Bool = false, isWaitingForServer: Bool = false
    ) {
      self.responseCode = responseCode
      self.timesFetched = timesFetched
      self.errorMessage = errorMessage
      self.errorCause = errorCause
      self.isOffline = isOffline
      self.isWaitingForServer = isWaitingForServer
    }

    /// The message shown whenever a fetch fails.
    public static let fetchFailedMessage = "Sorry, something went wrong. Please try again."

    /// The response code as the server wrote it (lowercase), or "none".
    public var responseCodeText: String { responseCode?.uuidString.lowercased() ?? "none" }

    /// "Response Code: <code>"
    public var responseCodeLabel: String { "Response Code: \(responseCodeText)" }

    /// "Times Fetched: <n>"
    public var timesFetchedLabel: String { "Times Fetched: \(timesFetched)" }

    /// The offline notice, when the server cannot be reached.
    public var offlineNotice: String? {
      guard isOffline || isWaitingForServer else { return nil }
      return isWaitingForServer
        ? "Offline: the server cannot be reached. Fetching again when it is back."
        : "Offline: the server cannot be reached."
    }
  }
}
