import DownloadClient
import Foundation
import HTTPClient
import StoreLive
import Synchronization
import TestClocks
import Testing

@testable import DownloadClientLive

/// A queue in memory that refuses every transaction once `fill()` was called, as a full disk
/// does.
private final class FillingStore: Sendable {
  private let full = Mutex(false)
  private let inner = DownloadStore.inMemory()

  var store: DownloadStore {
    DownloadStore { [self] body in
      if full.withLock({ $0 }) {
        throw StoreFileError.unwritable(path: "downloads.jsonl", reason: "No space left on device")
      }
      try inner.transaction(body)
    }
  }

  func fill() { full.withLock { $0 = true } }
}

@Suite(.timeLimit(.minutes(1))) struct UnsavedQueueTests {
  /// A change of the queue that cannot be saved stops the download, saying so, instead of
  /// going on with a record that no longer says what it does.
  @Test func aRetryWhoseStatusCannotBeSavedPausesTheDownloadSayingSo() async throws {
    let folder = try TemporaryFolder()
    let filling = FillingStore()
    let requests = Mutex(0)
    // The disk fills while the first attempt runs; its 503 would be retried.
    let http = HTTPClient { request, receiver in
      requests.withLock { $0 += 1 }
      filling.fill()
      _ = await receiver.head(HTTPResponseHead(status: 503, url: request.url))
    }
    let client = DownloadClient.live(
      configuration: DownloadConfiguration(outputDirectory: folder.url), store: filling.store,
      http: http, clock: ImmediateClock(), reachability: .reachable)
    let end = try await download(
      DownloadRequest(url: URL(string: "http://server.test/a.bin")!), with: client)
    guard case .failed(_, .file(let reason)) = end else {
      Issue.record("expected a failure naming the queue, got \(end)")
      return
    }
    #expect(
      reason == "cannot save the download queue (cannot write the state file downloads.jsonl: "
        + "No space left on device); the download is paused")
    #expect(requests.withLock { $0 } == 1)
  }
}
