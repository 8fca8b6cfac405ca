import DownloadClient
import DownloadRPC
import Foundation

/// The events of a daemon's downloads, from its lists taken one after another: at once when the
/// daemon notifies a change (`RPCConnection.listen`), every `interval` while a download
/// transfers (notifications carry no progress), and every `resync` otherwise, for what the
/// daemon does not notify (an addition that waits for a slot, a change of order). A daemon that
/// streams no notifications is asked every `interval`.
enum RemoteEvents {
  /// The events, from the first list on; they end when the daemon cannot be asked.
  static func stream<C: Clock<Duration>>(
    rpc: RPCConnection, clock: C, interval: Duration, resync: Duration = .seconds(10)
  ) -> AsyncStream<DownloadEvent> {
    AsyncStream { continuation in
      let changes = Changes()
      let listening = Task {
        // A stream that ends (the daemon stopped it) is opened again; one never served is
        // not asked for again.
        while !Task.isCancelled {
          do {
            try await rpc.listen(
              subscribed: { await changes.heard(pushing: true) },
              notified: { Task { await changes.heard() } })
          } catch {
            return await changes.heard(pushing: false)
          }
          await changes.heard(pushing: false)
          do { try await clock.sleep(for: interval) } catch { return }
        }
      }
      let listing = Task {
        await changes.waitForFirstWord()
        var last: [DownloadID: RemoteDownload]?
        while !Task.isCancelled {
          guard let entries = try? await rpc.list() else { break }
          if let last {
            for event in self.changes(from: last, to: entries) { continuation.yield(event) }
          }
          last = Dictionary(entries.map { ($0.download.id, $0) }) { $1 }
          let transferring = entries.contains { $0.download.status.transfers }
          let wait = (await changes.pushing && !transferring) ? resync : interval
          await changes.next(within: wait, clock: clock)
        }
        continuation.finish()
      }
      continuation.onTermination = { _ in
        listening.cancel()
        listing.cancel()
      }
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

/// What the notifications said: whether they come (`pushing`), and a change not yet listed.
private actor Changes {
  private(set) var pushing = false
  /// Whether the stream of notifications has started or failed: the first list is taken
  /// after that, so that no change between the two goes unseen.
  private var settled = false
  private var pending = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// A notification (or, with `pushing`, the stream's start or end).
  func heard(pushing: Bool? = nil) {
    if let pushing {
      self.pushing = pushing
      settled = true
    }
    pending = true
    for waiter in waiters { waiter.resume() }
    waiters = []
  }

  func waitForFirstWord() async {
    while !settled, !Task.isCancelled { await wait() }
    pending = false
  }

  /// Returns after a change or `limit`, whichever comes first.
  func next<C: Clock<Duration>>(within limit: Duration, clock: C) async {
    guard !pending else {
      pending = false
      return
    }
    let timer = Task { [weak self] in
      do { try await clock.sleep(for: limit) } catch { return }
      await self?.heard()
    }
    await wait()
    timer.cancel()
    pending = false
  }

  private func wait() async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { waiters.append($0) }
    } onCancel: {
      Task { await self.heard() }
    }
  }
}

extension DownloadStatus {
  /// Whether bytes may be coming in: running, or about to again (a retry, a wait for the
  /// network), which the notifications do not tell.
  fileprivate var transfers: Bool {
    switch self {
    case .running, .retrying, .waitingForNetwork: return true
    case .queued, .paused, .completed, .failed: return false
    }
  }
}
