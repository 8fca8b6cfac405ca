import DownloadClient
import Foundation
import HTTPClient
import TestClocks
import Testing

@testable import DownloadClientLive

/// `resumesInterrupted`: what a killed process left running goes on in a daemon, and what the
/// user paused stays paused.
@Suite struct InterruptedTests {
  /// A store whose `running` download was left so by a process that ended, beside a paused one.
  private func store(in folder: TemporaryFolder) throws -> DownloadStore {
    let store = DownloadStore.inMemory()
    for (id, status) in [("left", DownloadStatus.running), ("held", .paused)] {
      let download = Download(
        id: DownloadID(id), request: DownloadRequest(url: URL(string: "http://h/\(id)")!),
        status: status, destination: folder.file(id))
      _ = try DownloadQueue.insert(DownloadRecord(download: download, sequence: 0), into: store)
    }
    return store
  }

  @Test func aDaemonResumesWhatWasRunningOnly() async throws {
    let folder = try TemporaryFolder()
    let script = HTTPScript([HTTPScript.Reply(body: content(500))])
    let client = client(script, folder: folder, store: try store(in: folder)) {
      $0.resumesInterrupted = true
    }
    let events = client.events()
    #expect(await end(of: DownloadID("left"), in: events) != .removed(DownloadID("left")))
    #expect(try Data(contentsOf: folder.file("left")) == content(500))
    #expect(script.requests.map(\.url.path) == ["/left"])
    let statuses = try await client.list().map(\.status)
    #expect(statuses == [.completed, .paused])
  }

  @Test func withoutItTheyWaitPaused() async throws {
    let folder = try TemporaryFolder()
    let client = client(HTTPScript([]), folder: folder, store: try store(in: folder))
    #expect(try await client.list().map(\.status) == [.paused, .paused])
    // The one its process left is said interrupted; the user's pause is not.
    #expect(try await client.list().map(\.interrupted) == [true, false])
  }
}

/// What `list` says of this process's own downloads.
@Suite struct OwnListTests {
  @Test func aDownloadWaitingForASlotHereIsQueuedNotPaused() async throws {
    let folder = try TemporaryFolder()
    let clock = TestClock()
    // The first waits to retry a 503 on the test clock, holding the one slot.
    let script = HTTPScript([HTTPScript.Reply(status: 503)])
    let client = client(script, folder: folder, clock: clock) {
      $0.maxConcurrentDownloads = 1
      $0.log = .silent
    }
    let events = client.events()
    let first = try await client.start(DownloadRequest(url: URL(string: "http://h/a")!))
    for await event in events where event == .statusChanged(first.id, .retrying(attempt: 1)) {
      break
    }
    let second = try await client.start(DownloadRequest(url: URL(string: "http://h/b")!))
    let statuses = try await client.list().map { ($0.id, $0.status) }
    #expect(statuses.map(\.0) == [first.id, second.id])
    #expect(statuses.map(\.1) == [.retrying(attempt: 1), .queued])
  }
}
