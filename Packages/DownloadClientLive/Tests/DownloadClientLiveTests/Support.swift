import DownloadClient
import Foundation
import HTTPClient
import Reachability
import StoreLive
import Synchronization
import TestClocks

@testable import DownloadClientLive

/// Deterministic file contents.
func content(_ count: Int, seed: UInt8 = 7) -> Data {
  Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ seed })
}

/// A fresh folder, removed when released.
final class TemporaryFolder: Sendable {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("DownloadClientLiveTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// The live client over `stub`, writing into `folder`, with `configure` applied.
func client(
  _ stub: HTTPScript, folder: TemporaryFolder, store: DownloadStore = .inMemory(),
  clock: some Clock<Duration> = ImmediateClock(), reachability: Reachability = .reachable,
  configure: (inout DownloadConfiguration) -> Void = { _ in }
) -> DownloadClient {
  var configuration = DownloadConfiguration(outputDirectory: folder.url)
  configure(&configuration)
  return .live(
    configuration: configuration, store: store, http: stub.client, clock: clock,
    reachability: reachability, random: { 0.5 })
}

/// Starts `request` on `client` and returns the event that ended it.
func download(_ request: DownloadRequest, with client: DownloadClient) async throws
  -> DownloadEvent
{
  let events = client.events()
  let download = try await client.start(request)
  return await end(of: download.id, in: events)
}

/// The event among `events` that ends `id`: finished or failed (`.removed` if none does).
func end(of id: DownloadID, in events: AsyncStream<DownloadEvent>) async -> DownloadEvent {
  for await event in events {
    switch event {
    case .finished(id, _, _), .failed(id, _): return event
    default: continue
    }
  }
  return .removed(id)
}

extension QueueState.Insertion {
  /// The record added, if one was.
  var added: DownloadRecord? {
    if case .added(let record, _) = self { record } else { nil }
  }

  /// The record of the same request that was there, if one was.
  var existing: DownloadRecord? {
    if case .existing(let record) = self { record } else { nil }
  }
}

extension DownloadStore {
  /// This store, whose writes fail once one of them marks a download done, as a full disk or
  /// a process killed after the move leaves it.
  func failingAtDone() -> DownloadStore {
    DownloadStore { body in
      try transaction { state in
        var copy = state
        try body(&copy)
        if copy.records.values.contains(where: { $0.download.status == .completed }) {
          throw CocoaError(.fileWriteOutOfSpace)
        }
        try body(&state)
      }
    }
  }
}

/// A queue in memory that refuses every transaction once `fill()` was called, as a full disk
/// does.
final class FillingStore: Sendable {
  private let full = Mutex(false)
  private let inner = DownloadStore.inMemory()

  /// Reads go on: a full disk refuses writes.
  var store: DownloadStore {
    DownloadStore(
      transaction: { [self] body in
        if full.withLock({ $0 }) {
          throw StoreFileError.unwritable(
            path: "downloads.jsonl", reason: "No space left on device")
        }
        try inner.transaction(body)
      },
      read: { [inner] body in try inner.read(body) })
  }

  func fill() { full.withLock { $0 = true } }
}
