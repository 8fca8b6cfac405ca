import DownloadClient
import DownloadFeature
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs downloads to their end for a command: follows the events, shows them, and pauses
/// everything cleanly on Ctrl-C (exit 130), so that the same command resumes later.
struct DownloadRunner {
  let client: DownloadClient
  let output: DownloadOutput
  var hooks = DownloadHooks()
  /// Whether Ctrl-C pauses the downloads; a daemon's go on without this process.
  var pausesOnInterrupt = true
  /// Whether a download added (or resumed) by another client while this runs is followed too,
  /// as `downloads watch` does; else only those `start` gives are.
  var followsOthers = false

  /// Calls `start` to add or resume downloads, then waits until each has finished or
  /// failed. Returns the exit status: 0 when all of them finished and nothing else failed,
  /// else the last failure's (`DownloadExitCode`).
  func run(_ start: (DownloadClient) async -> [Download]) async -> Int32 {
    let events = client.events()
    let tracked = Tracked()
    // The rows, shared with the interrupt handler, which draws them last.
    let shown = Mutex(DownloadList())
    let interrupt = await onInterrupt(tracked) { [client, output, pausesOnInterrupt] in
      if pausesOnInterrupt { await pause(tracked.ids) }
      // The last frame says paused, with the bytes on disk, before the process ends.
      let downloads = (try? await client.list()) ?? []
      shown.withLock { list in
        for download in downloads where tracked.contains(download.id) {
          list.apply(.statusChanged(download.id, download.status))
          list.apply(
            .progress(
              download.id,
              DownloadProgress(
                receivedBytes: download.receivedBytes, expectedBytes: download.expectedBytes,
                bytesPerSecond: 0, estimatedTimeRemaining: nil)))
        }
        output.finish(list)
      }
      output.interrupted(paused: pausesOnInterrupt)
      exit(130)
    }
    defer { interrupt.cancel() }

    var paths: [DownloadID: String] = [:]
    for download in await start(client) {
      tracked.insert(download.id)
      paths[download.id] = download.destination?.path
      shown.withLock { $0.show(download) }
      output.started(download)
    }
    // The hooks run beside the downloads; the command ends after the last.
    var hooksRunning: [Task<Void, Never>] = []
    // Every row is a tracked download's: events of others are not applied, unless followed.
    if !shown.withLock({ $0.isSettled }) {
      for await event in events {
        if !tracked.contains(event.downloadID) {
          guard followsOthers, let download = await newlyUnderWay(event) else { continue }
          tracked.insert(download.id)
          paths[download.id] = download.destination?.path
          shown.withLock { $0.show(download) }
          output.started(download)
          if case .added = event { continue }
        }
        switch event {
        case .removed(let id): output.failure("\(id): cancelled")
        // A task for a hook only where there is one: thousands of small files start none.
        case .finished(let id, let file, _) where hooks.onComplete != nil:
          hooksRunning.append(
            Task { [hooks] in await hooks.run(for: id, finished: true, path: file.path) })
        case .failed(let id, _) where hooks.onError != nil:
          let path = paths[id] ?? ""
          hooksRunning.append(
            Task { [hooks] in await hooks.run(for: id, finished: false, path: path) })
        default: break
        }
        let settled = shown.withLock { list in
          list.apply(event)
          output.show(event, in: list)
          return list.isSettled
        }
        if settled { break }
      }
    }
    for hook in hooksRunning { await hook.value }
    // Pausing on Ctrl-C settles the downloads too: the interrupt ends the process, with 130.
    if let interruption = tracked.interruption { await interruption.value }
    return shown.withLock { list in
      output.finish(list)
      return output.failureStatus ?? (list.count(of: .done) == list.rows.count ? 0 : 1)
    }
  }

  /// The download that `event` shows added or set going by another client, if it did.
  private func newlyUnderWay(_ event: DownloadEvent) async -> Download? {
    switch event {
    case .added(let download): return download
    case .statusChanged(let id, let status) where status.isActive:
      return try? await client.list().first { $0.id == id }
    default: return nil
    }
  }

  /// Pauses `ids`: first those that wait (queued, retrying, waiting for the network), then
  /// those under way, so that no slot a paused download frees starts another one.
  func pause(_ ids: Set<DownloadID>) async {
    let running = Set(((try? await client.list()) ?? []).filter { $0.status == .running }.map(\.id))
    for id in ids where !running.contains(id) { try? await client.pause(id) }
    for id in ids where running.contains(id) { try? await client.pause(id) }
  }

  /// Starts `requests` (a request that cannot start is one failure line) and runs them to
  /// their end, as `run(_:)` does.
  func run(requests: [DownloadRequest]) async -> Int32 {
    await run { client in
      var started: [Download] = []
      // In batches, so that the first downloads start while the rest are added.
      for first in stride(from: 0, to: requests.count, by: Self.batchSize) {
        let batch = requests[first..<min(first + Self.batchSize, requests.count)]
        for (request, result) in zip(batch, await client.start(Array(batch))) {
          switch result {
          case .success(let download): started.append(download)
          case .failure(let error):
            output.failure(
              "\(request.redacted.url.absoluteString): \(error)",
              status: (error as? DownloadError).map(DownloadExitCode.of) ?? 1)
          }
        }
      }
      return started
    }
  }

  /// How many requests of a list are added at once.
  private static let batchSize = 256

  /// Runs `handler` once on SIGINT instead of the default stop, as `tracked.interruption`,
  /// from the time this returns. Cancel the returned source to stop (a SIGINT after that is
  /// lost: libdispatch's catcher stays).
  private func onInterrupt(_ tracked: Tracked, _ handler: @escaping @Sendable () async -> Void)
    async -> any DispatchSourceSignal
  {
    await Signals.handle(SIGINT, on: .global()) { tracked.interrupt(with: handler) }
  }
}

/// The downloads a command follows, readable from the interrupt handler, and the handler's
/// run once Ctrl-C was pressed.
private final class Tracked: Sendable {
  private struct State {
    var ids: Set<DownloadID> = []
    var interruption: Task<Void, Never>?
  }

  private let state = Mutex(State())
  var ids: Set<DownloadID> { state.withLock { $0.ids } }
  func insert(_ id: DownloadID) { _ = state.withLock { $0.ids.insert(id) } }
  func contains(_ id: DownloadID) -> Bool { state.withLock { $0.ids.contains(id) } }

  /// The interrupt handler's run, once SIGINT arrived.
  var interruption: Task<Void, Never>? { state.withLock { $0.interruption } }

  /// Runs `handler`, unless an interrupt already runs it.
  func interrupt(with handler: @escaping @Sendable () async -> Void) {
    state.withLock { state in
      if state.interruption == nil { state.interruption = Task { await handler() } }
    }
  }
}
