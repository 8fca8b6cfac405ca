import DownloadClient
import DownloadRPC
import Foundation

/// The events of a daemon's downloads, from its lists taken one after another: the whole list
/// when the daemon notifies a change (`RPCConnection.listen`), the downloads that transfer
/// every `interval` in between (notifications carry no progress), and the whole list every
/// `resync` while none does, for what the daemon does not notify (an addition that waits for a
/// slot, a change of order). A daemon that streams no notifications is asked for the whole
/// list every `interval`.
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
        var last: [RemoteDownload]?
        var notified = true
        while !Task.isCancelled {
          let pushing = await changes.pushing
          guard
            let entries = try? await next(
              after: notified || !pushing ? nil : last, rpc: rpc)
          else { break }
          if let last {
            let before = Dictionary(last.map { ($0.download.id, $0) }) { $1 }
            for event in self.changes(from: before, to: entries) { continuation.yield(event) }
          }
          last = entries
          let transferring = entries.contains { RemoteDownload.transfers($0.download.status) }
          notified = await changes.next(
            within: pushing && !transferring ? resync : interval, clock: clock)
        }
        continuation.finish()
      }
      continuation.onTermination = { _ in
        listing.cancel()
        listening.cancel()
      }
    }
  }

  /// The downloads now: the whole list, or with `last` (nothing was notified since it was
  /// taken) `last` with the downloads that transfer as they are now. When those are not the
  /// ones that transferred in `last`, something changed unnotified: the whole list.
  private static func next(after last: [RemoteDownload]?, rpc: RPCConnection) async throws
    -> [RemoteDownload]
  {
    guard let last else { return try await rpc.list() }
    let now = try await rpc.list(transferring: true)
    let was = last.filter { RemoteDownload.transfers($0.download.status) }.map(\.download.id)
    guard now.map(\.download.id) == was else { return try await rpc.list() }
    let fresh = Dictionary(now.map { ($0.download.id, $0) }) { $1 }
    return last.map { fresh[$0.download.id] ?? $0 }
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
  private var notified = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// A notification (or, with `pushing`, the stream's start or end).
  func heard(pushing: Bool? = nil) {
    if let pushing {
      self.pushing = pushing
      settled = true
    }
    notified = true
    wake()
  }

  func waitForFirstWord() async {
    while !settled, !Task.isCancelled { await wait() }
    notified = false
  }

  /// Returns after a notification or `limit`, whichever comes first: true for a notification.
  func next<C: Clock<Duration>>(within limit: Duration, clock: C) async -> Bool {
    if !notified {
      let timer = Task { [weak self] in
        do { try await clock.sleep(for: limit) } catch { return }
        await self?.wake()
      }
      await wait()
      timer.cancel()
    }
    defer { notified = false }
    return notified
  }

  private func wake() {
    for waiter in waiters { waiter.resume() }
    waiters = []
  }

  private func wait() async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { waiters.append($0) }
    } onCancel: {
      Task { await self.wake() }
    }
  }
}
