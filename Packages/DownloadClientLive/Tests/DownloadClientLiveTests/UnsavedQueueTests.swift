import DownloadClient
import Foundation
import HTTPClient
import Synchronization
import TestClocks
import Testing

@testable import DownloadClientLive

@Suite(.timeLimit(.minutes(10))) struct UnsavedQueueTests {
  /// Why the download of a file through `http` over `filling`'s queue failed, when it failed
  /// naming a file; nil (recorded) otherwise.
  private func failure(through http: HTTPClient, filling: FillingStore, in folder: TemporaryFolder)
    async throws -> String?
  {
    let client = DownloadClient.live(
      configuration: DownloadConfiguration(outputDirectory: folder.url), store: filling.store,
      http: http, clock: ImmediateClock(), reachability: .reachable)
    let end = try await download(
      DownloadRequest(url: URL(string: "http://server.test/a.bin")!), with: client)
    guard case .failed(_, .file(let reason)) = end else {
      Issue.record("expected a failure naming the queue, got \(end)")
      return nil
    }
    #expect(try await client.list().map(\.status) == [.paused])
    return reason
  }

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
    let reason = try await failure(through: http, filling: filling, in: folder)
    #expect(
      reason == "cannot save the download queue (cannot write the state file downloads.jsonl: "
        + "No space left on device); the download is paused")
    #expect(requests.withLock { $0 } == 1)
  }

  /// The first answer is saved before any byte of the body is written: when it cannot be, the
  /// download stops there, paused, and the part file holds nothing of the new answer.
  @Test func aFirstAnswerThatCannotBeSavedPausesTheDownloadBeforeAnyByte() async throws {
    let folder = try TemporaryFolder()
    let filling = FillingStore()
    let http = HTTPClient { request, receiver in
      filling.fill()
      let head = HTTPResponseHead(status: 200, headers: ["ETag": "\"v1\""], url: request.url)
      guard await receiver.head(head) else { return }
      _ = receiver.body(content(1000))
    }
    let reason = try await failure(through: http, filling: filling, in: folder)
    #expect(reason?.hasPrefix("cannot save the download queue (") == true)
    #expect(reason?.hasSuffix("); the download is paused") == true)
    #expect(PartFile.size(of: folder.file("a.bin.part")) == 0)
    #expect(!PartFile.exists(folder.file("a.bin")))
  }
}
