import Foundation
import Synchronization

/// Hands every message to every current subscriber. A subscriber that does not read keeps the
/// newest 10,000 (about 2 MiB of notifications), so that clients that stall cannot grow the
/// daemon without bound (64 of them: about 130 MiB).
final class Broadcast: Sendable {
  private let subscribers = Mutex<[UUID: AsyncStream<Data>.Continuation]?>([:])

  func subscribe() -> AsyncStream<Data> {
    let (stream, continuation) = AsyncStream<Data>.makeStream(
      bufferingPolicy: .bufferingNewest(10_000))
    let id = UUID()
    let added = subscribers.withLock { subscribers -> Bool in
      guard subscribers != nil else { return false }
      subscribers?[id] = continuation
      return true
    }
    guard added else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.subscribers.withLock { $0?.removeValue(forKey: id) }
    }
    return stream
  }

  func send(_ message: Data) {
    for continuation in subscribers.withLock({ Array(($0 ?? [:]).values) }) {
      continuation.yield(message)
    }
  }

  /// Ends every stream, and those subscribed later at once.
  func finish() {
    for continuation in subscribers.withLock({ subscribers in
      defer { subscribers = nil }
      return Array((subscribers ?? [:]).values)
    }) {
      continuation.finish()
    }
  }
}
