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

  /// Calls `start` to add or resume downloads, then waits until each has finished or
  /// failed. Returns whether all of them finished and nothing else failed.
  func run(_ start: (DownloadClient) async -> [Download]) async -> Bool {
    let events = client.events()
    let tracked = Tracked()
    let interrupt = onInterrupt { [client, output] in
      for id in tracked.ids { try? await client.pause(id) }
      output.interrupted()
      exit(130)
    }
    defer { interrupt.cancel() }

    var list = DownloadList()
    for download in await start(client) {
      tracked.insert(download.id)
      list.show(download)
      output.started(download)
    }
    var settled: Bool { list.rows.allSatisfy { !tracked.contains($0.id) || !$0.status.isActive } }
    if !settled {
      for await event in events {
        guard tracked.contains(event.downloadID) else { continue }
        if case .removed(let id) = event { output.failure("\(id): cancelled") }
        list.apply(event)
        output.show(event, in: list)
        if settled { break }
      }
    }
    output.finish(list)
    return !output.hadFailures && list.rows.allSatisfy { $0.status == .completed }
  }

  /// Starts `requests` (a request that cannot start is one failure line) and runs them to
  /// their end, as `run(_:)` does.
  func run(requests: [DownloadRequest]) async -> Bool {
    await run { client in
      var started: [Download] = []
      for request in requests {
        do {
          started.append(try await client.start(request))
        } catch {
          output.failure("\(request.redacted.url.absoluteString): \(error)")
        }
      }
      return started
    }
  }

  /// Runs `handler` once on SIGINT instead of the default stop. Cancel the returned source to
  /// restore the default.
  private func onInterrupt(_ handler: @escaping @Sendable () async -> Void)
    -> any DispatchSourceSignal
  {
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler { Task { await handler() } }
    source.resume()
    return source
  }
}

/// The downloads a command follows, readable from the interrupt handler.
private final class Tracked: Sendable {
  private let state = Mutex<Set<DownloadID>>([])
  var ids: Set<DownloadID> { state.withLock { $0 } }
  func insert(_ id: DownloadID) { _ = state.withLock { $0.insert(id) } }
  func contains(_ id: DownloadID) -> Bool { state.withLock { $0.contains(id) } }
}
