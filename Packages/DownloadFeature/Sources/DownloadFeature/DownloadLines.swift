import DownloadClient
import Foundation

/// The download screen through a pipe: a line per change of a download's state, and one of
/// its progress at most once a second, by the instants the caller gives (its clock's), so
/// that the throttling is tested without waiting.
public struct DownloadLines<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
  private var lastProgress: [DownloadID: Instant] = [:]

  public init() {}

  /// The line `event` calls for at `now`, nil when none: an `added` event (the download's
  /// start says it), or progress shown less than a second before.
  public mutating func line(for event: DownloadEvent, in list: DownloadList, at now: Instant)
    -> String?
  {
    switch event {
    case .added: return nil
    case .statusChanged(let id, let status): return "\(id) \(status.text)"
    case .progress(let id, _):
      if let last = lastProgress[id], last.duration(to: now) < .seconds(1) { return nil }
      lastProgress[id] = now
      guard let row = list.row(id) else { return nil }
      return "\(id) progress \(row.percentText) \(row.bytesText) \(row.speedText)"
    case .finished(let id, let file, _): return "\(id) \(DownloadState.done.word) \(file.path)"
    case .unchanged(let id, let file, _):
      return "\(id) \(DownloadState.done.word), unchanged \(file.path)"
    case .failed(let id, let error): return "\(id) \(DownloadState.failed.word): \(error)"
    case .removed(let id): return "\(id) \(DownloadState.cancelled.word)"
    }
  }
}

extension DownloadList {
  /// The closing summary of a run that took `elapsed`, such as `3 files, 9.0 MiB in 4.2 s
  /// (2.1 MiB/s)`. The rate is of the bytes received in this run: a resumed download says so
  /// (`1 file, 21.0 MiB (14.3 MiB received in this run) in 11.9 s (1.2 MiB/s)`), and a run
  /// stopped before any file was done says what arrived (`no file done, 73.9 MiB received in
  /// 3.1 s (23.8 MiB/s), 3 paused`); failed and paused downloads are counted.
  public func summary(elapsed: Duration) -> String {
    let done = rows.filter { $0.state == .done }
    let bytes = done.reduce(Int64(0)) { $0 + ($1.expectedBytes ?? $1.receivedBytes) }
    let arrived = rows.reduce(Int64(0)) { $0 + $1.bytesThisRun }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let rate = seconds > 0 ? Int64(Double(arrived) / seconds) : arrived
    let time = "in \(String(format: "%.1f", seconds)) s (\(Units.bytes(rate))/s)"
    var summary: String
    if done.isEmpty {
      summary = "no file done, \(Units.bytes(arrived)) received \(time)"
    } else {
      summary = "\(done.count) \(done.count == 1 ? "file" : "files"), \(Units.bytes(bytes))"
      // A resumed download brought fewer bytes than its file's; a paused or failed one more
      // than the files done: the rate is of what arrived, and the line says so.
      if arrived != bytes { summary += " (\(Units.bytes(arrived)) received in this run)" }
      summary += " " + time
    }
    let paused = rows.count { $0.state == .paused }
    if paused > 0 { summary += ", \(paused) paused" }
    let failed = rows.count { $0.state == .failed }
    if failed > 0 { summary += ", \(failed) failed" }
    return summary
  }
}
