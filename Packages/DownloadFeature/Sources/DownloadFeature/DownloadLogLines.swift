import DownloadClient
import Foundation

/// A service's log of its downloads (the daemon's `daemon.log`, or journald from its standard
/// error): one line per event that a person looking back wants, none for progress. A download
/// added (its URL, secrets aside, and its file), started, retried, paused, done (its size and
/// the time since it started), failed (the cause) and removed. The instants are the caller's
/// clock's, so that the times are tested without waiting.
public struct DownloadLogLines<Instant: InstantProtocol>: Sendable
where Instant.Duration == Duration {
  /// When each download under way started, for the time of its end.
  private var started: [DownloadID: Instant] = [:]

  public init() {}

  /// The line `event` calls for at `now`; nil for progress and for the return to the queue.
  public mutating func line(for event: DownloadEvent, at now: Instant) -> String? {
    switch event {
    case .added(let download):
      let file = (download.destination ?? download.request.destination).map { " as \($0.path)" }
      return "\(download.id) added \(download.request.url.redactingPassword.absoluteString)"
        + (file ?? "")
    case .statusChanged(let id, let status):
      switch status {
      case .queued: return nil
      case .running: if started[id] == nil { started[id] = now }
      case .paused: started[id] = nil
      case .retrying, .waitingForNetwork, .completed, .failed: break
      }
      return "\(id) \(status.text)"
    case .progress: return nil
    case .finished(let id, let file, let bytes):
      return "\(id) \(DownloadState.done.word) \(file.path), \(Units.bytes(bytes))" + took(id, now)
    case .unchanged(let id, let file, _):
      return "\(id) \(DownloadState.done.word), unchanged \(file.path)" + took(id, now)
    case .failed(let id, let error):
      return "\(id) \(DownloadState.failed.word): \(error)" + took(id, now)
    case .removed(let id):
      started[id] = nil
      return "\(id) removed"
    }
  }

  /// ", in 4.2 s" since `id` started, if it did here; it is over.
  private mutating func took(_ id: DownloadID, _ now: Instant) -> String {
    guard let start = started.removeValue(forKey: id) else { return "" }
    let time = start.duration(to: now)
    let seconds = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
    return ", in \(String(format: "%.1f", seconds)) s"
  }
}
