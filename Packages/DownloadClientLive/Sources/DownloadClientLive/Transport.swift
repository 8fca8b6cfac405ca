import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends a request and streams the answer to a receiver, so that no body is held in memory.
public struct Transport: Sendable {
  /// Sends the request and returns once the body is complete or the receiver stopped it.
  /// Throws the transport's errors, and `CancellationError` when the task is cancelled.
  public var stream: @Sendable (URLRequest, TransferReceiver) async throws -> Void

  public init(stream: @escaping @Sendable (URLRequest, TransferReceiver) async throws -> Void) {
    self.stream = stream
  }
}

/// What a transfer does with an answer.
public struct TransferReceiver: Sendable {
  /// Gets the response head before any body; false stops the transfer.
  public var head: @Sendable (HTTPURLResponse) async -> Bool
  /// Gets each piece of the body, in order; false stops the transfer.
  public var body: @Sendable (Data) -> Bool

  public init(
    head: @escaping @Sendable (HTTPURLResponse) async -> Bool,
    body: @escaping @Sendable (Data) -> Bool
  ) {
    self.head = head
    self.body = body
  }
}
