import DownloadClient
import Foundation
import Synchronization

/// Hands every event to every current subscriber.
final class EventHub: Sendable {
  private let subscribers = Mutex<[UUID: AsyncStream<DownloadEvent>.Continuation]>([:])

  func subscribe() -> AsyncStream<DownloadEvent> {
    let (stream, continuation) = AsyncStream<DownloadEvent>.makeStream()
    let id = UUID()
    subscribers.withLock { $0[id] = continuation }
    continuation.onTermination = { [weak self] _ in
      _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
    }
    return stream
  }

  func send(_ event: DownloadEvent) {
    for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(event) }
  }
}
