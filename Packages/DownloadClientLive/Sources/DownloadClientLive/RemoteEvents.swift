import DownloadClient
import DownloadRPC
import Foundation

/// The events of a daemon's downloads, from its lists taken one after another.
enum RemoteEvents {
  /// Lists the daemon's downloads every `interval` and says what changed since the list
  /// before, from the first; ends when the daemon cannot be asked.
  static func stream<C: Clock<Duration>>(rpc: RPCConnection, clock: C, interval: Duration)
    -> AsyncStream<DownloadEvent>
  {
    AsyncStream { continuation in
      let polling = Task {
        var last: [DownloadID: RemoteDownload]?
        while !Task.isCancelled {
          guard let entries = try? await rpc.list() else { break }
          if let last {
            for event in changes(from: last, to: entries) { continuation.yield(event) }
          }
          last = Dictionary(entries.map { ($0.download.id, $0) }) { $1 }
          do { try await clock.sleep(for: interval) } catch { break }
        }
        continuation.finish()
      }
      continuation.onTermination = { _ in polling.cancel() }
    }
  }

  /// The events that turn the downloads `before` into `after`, in `after`'s order.
  static func changes(from before: [DownloadID: RemoteDownload], to after: [RemoteDownload])
    -> [DownloadEvent]
  {
    var events: [DownloadEvent] = []
    for entry in after {
      let download = entry.download
      guard let old = before[download.id]?.download else {
        events.append(.added(download))
        continue
      }
      if download.receivedBytes != old.receivedBytes, !download.status.hasEnded {
        let remaining = download.expectedBytes.map { $0 - download.receivedBytes }
        let eta = remaining.flatMap { remaining in
          entry.bytesPerSecond > 0
            ? Duration.seconds(Double(remaining) / entry.bytesPerSecond) : nil
        }
        events.append(
          .progress(
            download.id,
            DownloadProgress(
              receivedBytes: download.receivedBytes, expectedBytes: download.expectedBytes,
              bytesPerSecond: entry.bytesPerSecond, estimatedTimeRemaining: eta)))
      }
      guard download.status != old.status else { continue }
      switch download.status {
      case .completed:
        events.append(
          .finished(
            download.id, file: download.destination ?? download.request.url,
            bytes: download.receivedBytes))
      case .failed(let reason):
        events.append(.failed(download.id, entry.error ?? .unrecoverable(reason)))
      default:
        events.append(.statusChanged(download.id, download.status))
      }
    }
    let present = Set(after.map(\.download.id))
    for id in before.keys.sorted(by: { $0.rawValue < $1.rawValue }) where !present.contains(id) {
      events.append(.removed(id))
    }
    return events
  }
}
