import Checksum
import ChecksumTypes
import DownloadClient
import DownloadClientLive
import Foundation
import HTTPClient
import Reachability
import TestClocks
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

private let url = URL(string: "http://server.test/files/data.bin")!
private let body = content(1000)

@Suite(.timeLimit(.minutes(10))) struct DownloadClientLiveTests {
  @Test func downloadsIntoTheOutputFolderUnderTheURLName() async throws {
    let folder = try TemporaryFolder()
    let stub = HTTPScript([.init(headers: ["ETag": "\"v1\""], body: body)])
    let end = try await download(DownloadRequest(url: url), with: client(stub, folder: folder))
    #expect(
      end == .finished(end.downloadID, file: folder.file("data.bin"), bytes: Int64(body.count)))
    #expect(try Data(contentsOf: folder.file("data.bin")) == body)
    #expect(!FileManager.default.fileExists(atPath: folder.file("data.bin.part").path))
    #expect(stub.requests.first?.header("User-Agent") == "fetcher/1.0")
    #expect(stub.requests.first?.header("Range") == nil)
    #expect(stub.requests.first?.header("Accept-Encoding") == "identity")
  }

  @Test func resumesADroppedTransferWithRangeAndIfRange() async throws {
    let folder = try TemporaryFolder()
    let stub = HTTPScript([
      .init(headers: ["ETag": "\"v1\""], body: body, dropAfter: 400),
      .init(
        status: 206, headers: ["ETag": "\"v1\"", "Content-Range": "bytes 400-999/1000"],
        body: body.suffix(600)),
    ])
    let end = try await download(DownloadRequest(url: url), with: client(stub, folder: folder))
    guard case .finished = end else {
      Issue.record("\(end)")
      return
    }
    #expect(try Data(contentsOf: folder.file("data.bin")) == body)
    let resumed = try #require(stub.requests.last)
    #expect(resumed.header("Range") == "bytes=400-")
    #expect(resumed.header("If-Range") == "\"v1\"")
    #expect(resumed.header("Accept-Encoding") == "identity")
  }

  @Test func usesLastModifiedWhenThereIsNoETag() async throws {
    let folder = try TemporaryFolder()
    let date = "Tue, 14 Nov 2023 22:13:20 GMT"
    let stub = HTTPScript([
      .init(headers: ["Last-Modified": date], body: body, dropAfter: 300),
      .init(
        status: 206, headers: ["Content-Range": "bytes 300-999/1000"], body: body.suffix(700)),
    ])
    _ = try await download(DownloadRequest(url: url), with: client(stub, folder: folder))
    #expect(stub.requests.last?.header("If-Range") == date)
    #expect(try Data(contentsOf: folder.file("data.bin")) == body)
  }

  @Test func aWhole200ReplyToARangeRestartsFromZero() async throws {
    let folder = try TemporaryFolder()
    let changed = content(1000, seed: 99)
    let stub = HTTPScript([
      .init(headers: ["ETag": "\"v1\""], body: body, dropAfter: 400),
      .init(headers: ["ETag": "\"v2\""], body: changed),
    ])
    _ = try await download(DownloadRequest(url: url), with: client(stub, folder: folder))
    #expect(try Data(contentsOf: folder.file("data.bin")) == changed)
  }

  @Test func aContentRangeThatDoesNotStartAtTheOffsetRestarts() async throws {
    let folder = try TemporaryFolder()
    let stub = HTTPScript([
      .init(headers: ["ETag": "\"v1\""], body: body, dropAfter: 400),
      .init(
        status: 206, headers: ["ETag": "\"v1\"", "Content-Range": "bytes 0-999/1000"],
        body: body),
      .init(headers: ["ETag": "\"v1\""], body: body),
    ])
    _ = try await download(DownloadRequest(url: url), with: client(stub, folder: folder))
    #expect(stub.requests.count == 3)
    #expect(stub.requests[2].header("Range") == nil)
    #expect(try Data(contentsOf: folder.file("data.bin")) == body)
  }

  @Test func backsOffExponentiallyBetweenRetries() async throws {
    let folder = try TemporaryFolder()
    let clock = ImmediateClock()
    let stub = HTTPScript([.init(status: 503), .init(status: 500), .init(body: body)])
    let end = try await download(
      DownloadRequest(url: url), with: client(stub, folder: folder, clock: clock))
    guard case .finished = end else {
      Issue.record("\(end)")
      return
    }
    #expect(clock.now.offset == .seconds(3))  // 1 s, then 2 s
  }

  @Test func honoursRetryAfter() async throws {
    let folder = try TemporaryFolder()
    let clock = ImmediateClock()
    let stub = HTTPScript([.init(status: 429, headers: ["Retry-After": "7"]), .init(body: body)])
    _ = try await download(
      DownloadRequest(url: url), with: client(stub, folder: folder, clock: clock))
    #expect(clock.now.offset == .seconds(7))
  }

  @Test func givesUpAfterTheRetries() async throws {
    let folder = try TemporaryFolder()
    let stub = HTTPScript(Array(repeating: .init(status: 503), count: 5))
    let end = try await download(
      DownloadRequest(url: url), with: client(stub, folder: folder) { $0.maxRetries = 2 })
    #expect(end == .failed(end.downloadID, .httpStatus(503)))
    #expect(stub.requests.count == 3)
  }

  @Test func a404FailsWithoutRetrying() async throws {
    let folder = try TemporaryFolder()
    let stub = HTTPScript([.init(status: 404), .init(body: body)])
    let end = try await download(DownloadRequest(url: url), with: client(stub, folder: folder))
    #expect(end == .failed(end.downloadID, .httpStatus(404)))
    #expect(stub.requests.count == 1)
  }

  /// The cause is data, in the list and in the journal, so that a later process (a daemon
  /// started again) still gives its aria2 error code; it goes when the download runs again.
  @Test func aFailureIsKeptAsItsCauseAcrossProcesses() async throws {
    let folder = try TemporaryFolder()
    let journal = folder.file("downloads.jsonl")
    let stub = HTTPScript([.init(status: 404), .init(body: body)])
    let first = client(stub, folder: folder, store: .file(at: journal))
    let failed = try await download(DownloadRequest(url: url), with: first).downloadID
    #expect(try await first.list().map(\.failure) == [.httpStatus(404)])

    let later = client(stub, folder: folder, store: .file(at: journal))
    let listed = try #require(try await later.list().first)
    #expect(listed.status == .failed(reason: "the server answered HTTP 404"))
    #expect(listed.failure == .httpStatus(404))

    let events = later.events()
    try await later.resume(failed)
    guard case .finished = await end(of: failed, in: events) else {
      Issue.record("the resumed download did not finish")
      return
    }
    #expect(try await later.list().map(\.failure) == [nil])
  }

  @Test func idleTimeoutsAreRetried() async throws {
    let folder = try TemporaryFolder()
    let stub = HTTPScript([.failure(.idleTimeout(seconds: 60)), .init(body: body)])
    let end = try await download(DownloadRequest(url: url), with: client(stub, folder: folder))
    guard case .finished = end else {
      Issue.record("\(end)")
      return
    }
    #expect(stub.requests.count == 2)
  }

  /// Each algorithm, computed while the bytes arrive: a wrong digest fails the download and
  /// keeps its bytes in the part file, as aria2c keeps them; the digest it reported then
  /// passes, and is the one Checksum gives.
  @Test(arguments: DigestAlgorithm.allCases)
  func checksMatchingAndMismatchingDigests(algorithm: DigestAlgorithm) async throws {
    let folder = try TemporaryFolder()
    let wrong = FileChecksum(algorithm, hex: String(repeating: "0", count: algorithm.hexDigits))!
    let stub = HTTPScript([.init(body: body)])
    let end = try await download(
      DownloadRequest(url: url, expectedChecksum: wrong), with: client(stub, folder: folder))
    guard case .failed(_, .checksumMismatch(let expected, let actual)) = end else {
      Issue.record("\(end)")
      return
    }
    #expect(expected == wrong)
    var digest = Digest(algorithm)
    digest.update(body)
    #expect(actual == digest.finalize())
    #expect(!FileManager.default.fileExists(atPath: folder.file("data.bin").path))
    #expect(try Data(contentsOf: folder.file("data.bin.part")) == body)

    let again = HTTPScript([.init(body: body)])
    let other = URL(string: "http://server.test/other.bin")!
    let good = try await download(
      DownloadRequest(url: other, expectedChecksum: FileChecksum(algorithm, hex: actual)),
      with: client(again, folder: folder))
    guard case .finished = good else {
      Issue.record("\(good)")
      return
    }
  }

  /// With `remoteTime`, the file has its server's `Last-Modified` (1,700,000,000 s after the
  /// epoch here); without it, or without the header, the time it was written.
  @Test(arguments: [(true, true), (false, true), (true, false)])
  func theServersTimeWithRemoteTime(remoteTime: Bool, sendsIt: Bool) async throws {
    let folder = try TemporaryFolder()
    let headers: HTTPHeaders = sendsIt ? ["Last-Modified": "Tue, 14 Nov 2023 22:13:20 GMT"] : [:]
    let stub = HTTPScript([.init(headers: headers, body: body)])
    let end = try await download(
      DownloadRequest(url: url),
      with: client(stub, folder: folder) { $0.remoteTime = remoteTime })
    guard case .finished(_, let file, _) = end else {
      Issue.record("\(end)")
      return
    }
    let modified =
      try FileManager.default.attributesOfItem(atPath: file.path)[
        .modificationDate] as? Date
    let serversTime = modified?.timeIntervalSince1970 == 1_700_000_000
    #expect(serversTime == (remoteTime && sendsIt))
  }

  @Test func anExistingFileIsNeverOverwrittenWithoutForce() async throws {
    let folder = try TemporaryFolder()
    try Data("mine".utf8).write(to: folder.file("data.bin"))
    let stub = HTTPScript([.init(body: body)])
    await #expect(throws: DownloadError.destinationExists(folder.file("data.bin").path)) {
      try await client(stub, folder: folder).start(DownloadRequest(url: url))
    }
    #expect(try Data(contentsOf: folder.file("data.bin")) == Data("mine".utf8))

    let forced = try await download(
      DownloadRequest(url: url), with: client(stub, folder: folder) { $0.overwrite = true })
    guard case .finished = forced else {
      Issue.record("\(forced)")
      return
    }
    #expect(try Data(contentsOf: folder.file("data.bin")) == body)
  }

  @Test func maxSizeAbortsLargeDownloads() async throws {
    let folder = try TemporaryFolder()
    let stub = HTTPScript([.init(body: body)])
    let end = try await download(
      DownloadRequest(url: url), with: client(stub, folder: folder) { $0.maxSize = 999 })
    #expect(end == .failed(end.downloadID, .tooLarge(limit: 999)))
  }

  @Test func maxSizeAlsoAppliesWithoutAContentLength() async throws {
    let folder = try TemporaryFolder()
    let stub = HTTPScript([.init(headers: ["Content-Length": "-1"], body: body)])
    let end = try await download(
      DownloadRequest(url: url), with: client(stub, folder: folder) { $0.maxSize = 500 })
    #expect(end == .failed(end.downloadID, .tooLarge(limit: 500)))
    // The piece that would pass the limit is never written.
    let part = try Data(contentsOf: folder.file("data.bin.part"))
    #expect(part == body.prefix(500))
  }

  @Test func aFileThatCannotBeCreatedSaysWhy() async throws {
    let folder = try TemporaryFolder()
    let stub = HTTPScript([.init(body: body)])
    let name = String(repeating: "é", count: 200)
    let end = try await download(
      DownloadRequest(url: url, destination: folder.file(name)), with: client(stub, folder: folder))
    guard case .failed(_, .file(let reason)) = end else {
      Issue.record("expected a file error, got \(end)")
      return
    }
    #expect(reason.hasSuffix("File name too long"))
  }

  @Test func addingTheSameRequestAgainReturnsTheExistingDownload() async throws {
    let folder = try TemporaryFolder()
    let stub = HTTPScript([.init(body: body)])
    let client = client(stub, folder: folder)
    let events = client.events()
    let first = try await client.start(DownloadRequest(url: url))
    let second = try await client.start(DownloadRequest(url: url))
    #expect(first.id == second.id)
    _ = await end(of: first.id, in: events)
    #expect(try await client.list().count == 1)
  }

  @Test func aDownloadAddedPausedWaitsForAResume() async throws {
    let folder = try TemporaryFolder()
    let stub = HTTPScript([.init(body: body)])
    let client = client(stub, folder: folder)
    let events = client.events()
    var request = DownloadRequest(url: url)
    request.startsPaused = true
    let added = try await client.start(request)
    #expect(added.status == .paused)
    #expect(!added.request.startsPaused)
    #expect(try await client.list().map(\.status) == [.paused])
    // Added again, it stays paused; a resume starts it.
    #expect(try await client.start(request).status == .paused)
    #expect(stub.requests.isEmpty)
    try await client.resume(added.id)
    #expect(await end(of: added.id, in: events) != .removed(added.id))
    #expect(try Data(contentsOf: folder.file("data.bin")) == body)
  }

  @Test func rejectsURLsThatAreNotHTTP() async throws {
    let folder = try TemporaryFolder()
    let file = URL(string: "file:///etc/passwd")!
    await #expect(throws: DownloadError.unsupportedURL("file:///etc/passwd")) {
      try await client(HTTPScript([]), folder: folder).start(DownloadRequest(url: file))
    }
  }

  @Test func theQueueRunsInOrderWithinTheConcurrencyLimit() async throws {
    let folder = try TemporaryFolder()
    let stub = HTTPScript(Array(repeating: .init(body: body), count: 5))
    let client = client(stub, folder: folder) { $0.maxConcurrentDownloads = 2 }
    let events = client.events()
    var ids: [DownloadID] = []
    for index in 0..<5 {
      let request = DownloadRequest(url: URL(string: "http://server.test/\(index).bin")!)
      ids.append(try await client.start(request).id)
    }
    // One pass over the events: a download may end while another is waited for.
    var ended: Set<DownloadID> = []
    for await event in events {
      switch event {
      case .finished(let id, _, _), .failed(let id, _): ended.insert(id)
      default: break
      }
      if ended.isSuperset(of: ids) { break }
    }
    #expect(stub.maxInFlight <= 2)
    #expect(stub.requests.map(\.url.lastPathComponent) == (0..<5).map { "\($0).bin" })
  }

  @Test func theQueueSurvivesARestartAndResumesFromTheBytesOnDisk() async throws {
    let folder = try TemporaryFolder()
    let store = DownloadStore.inMemory()
    // A first process stops after 400 bytes: its transport fails and no retries are left.
    let first = HTTPScript([.init(headers: ["ETag": "\"v1\""], body: body, dropAfter: 400)])
    let firstEnd = try await download(
      DownloadRequest(url: url),
      with: client(first, folder: folder, store: store) { $0.maxRetries = 0 })
    guard case .failed(let id, _) = firstEnd else {
      Issue.record("\(firstEnd)")
      return
    }
    #expect(try Data(contentsOf: folder.file("data.bin.part")) == body.prefix(400))

    // A new process over the same store lists it and resumes it with a Range request.
    let second = HTTPScript([
      .init(
        status: 206, headers: ["ETag": "\"v1\"", "Content-Range": "bytes 400-999/1000"],
        body: body.suffix(600))
    ])
    let restarted = client(second, folder: folder, store: store)
    let listed = try await restarted.list()
    #expect(listed.map(\.id) == [id])
    #expect(listed.first?.expectedBytes == 1000)
    let events = restarted.events()
    // Started again, it says the bytes it goes on from (for the rate of this run).
    let resumed = try await restarted.start(DownloadRequest(url: url))
    #expect(resumed.id == id && resumed.receivedBytes == 400)
    #expect(
      await end(of: id, in: events)
        == .finished(id, file: folder.file("data.bin"), bytes: Int64(body.count)))
    #expect(second.requests.first?.header("Range") == "bytes=400-")
    #expect(try Data(contentsOf: folder.file("data.bin")) == body)
    #expect(try await restarted.list().first?.status == .completed)
  }

  @Test func cancelRemovesThePartialDataAndTheRecord() async throws {
    let folder = try TemporaryFolder()
    let stub = HTTPScript([.init(headers: ["ETag": "\"v1\""], body: body, dropAfter: 400)])
    let client = client(stub, folder: folder) { $0.maxRetries = 0 }
    let end = try await download(DownloadRequest(url: url), with: client)
    let events = client.events()
    try await client.cancel(end.downloadID)
    #expect(!FileManager.default.fileExists(atPath: folder.file("data.bin.part").path))
    #expect(try await client.list().isEmpty)
    var iterator = events.makeAsyncIterator()
    #expect(await iterator.next() == .removed(end.downloadID))
  }

  @Test func theResourceTimeoutEndsATransferThatKeepsGoing() async throws {
    let folder = try TemporaryFolder()
    let clock = TestClock()
    // Each piece of the body arrives one second after the last.
    let stub = HTTPScript(
      [.init(body: body)], beforeEachPiece: { clock.advance(by: .seconds(1)) })
    let end = try await download(
      DownloadRequest(url: url),
      with: client(stub, folder: folder, clock: clock) { $0.resourceTimeout = .seconds(5) })
    #expect(end == .failed(end.downloadID, .resourceTimeout(seconds: 5)))
    #expect(stub.requests.count == 1)
  }

  @Test func theResourceTimeoutStopsRetries() async throws {
    let folder = try TemporaryFolder()
    let clock = ImmediateClock()
    let stub = HTTPScript(Array(repeating: .init(status: 503), count: 4))
    let end = try await download(
      DownloadRequest(url: url),
      with: client(stub, folder: folder, clock: clock) { $0.resourceTimeout = .seconds(2) })
    // The first retry waits 1 s; the second would wait 2 s more, past the deadline.
    #expect(end == .failed(end.downloadID, .resourceTimeout(seconds: 2)))
    #expect(stub.requests.count == 2)
  }
}

@Suite(.timeLimit(.minutes(10))) struct RetryBudgetTests {
  @Test func attemptsThatMakeProgressDoNotUseUpTheRetries() async throws {
    let folder = try TemporaryFolder()
    // Five drops, each after 200 more bytes, with only one retry allowed.
    var replies: [HTTPScript.Reply] = [
      .init(headers: ["ETag": "\"v1\""], body: body, dropAfter: 200)
    ]
    for start in stride(from: 200, to: 1000, by: 200) {
      replies.append(
        .init(
          status: 206,
          headers: ["ETag": "\"v1\"", "Content-Range": "bytes \(start)-999/1000"],
          body: body.suffix(from: start), dropAfter: start + 200 < 1000 ? 200 : nil))
    }
    let stub = HTTPScript(replies)
    var configuration = DownloadConfiguration(outputDirectory: folder.url)
    configuration.maxRetries = 1
    let client = DownloadClient.live(
      configuration: configuration, store: .inMemory(), http: stub.client,
      clock: ImmediateClock(), reachability: .reachable)
    let events = client.events()
    _ = try await client.start(DownloadRequest(url: URL(string: "http://h/f.bin")!))
    for await event in events {
      if case .finished = event { break }
      if case .failed(_, let error) = event {
        Issue.record("\(error)")
        break
      }
    }
    #expect(stub.requests.count == 5)
    #expect(try Data(contentsOf: folder.file("f.bin")) == body)
  }
}

@Suite(.timeLimit(.minutes(10))) struct ContentDispositionTests {
  @Test func theServersNameIsUsedSanitisedInTheOutputFolder() async throws {
    let folder = try TemporaryFolder()
    let stub = HTTPScript([
      .init(headers: ["Content-Disposition": #"attachment; filename="../../evil.txt""#], body: body)
    ])
    let end = try await download(DownloadRequest(url: url), with: client(stub, folder: folder))
    #expect(
      end == .finished(end.downloadID, file: folder.file("evil.txt"), bytes: Int64(body.count)))
    #expect(try Data(contentsOf: folder.file("evil.txt")) == body)
    #expect(!FileManager.default.fileExists(atPath: folder.file("data.bin").path))
  }

  @Test func anExplicitDestinationWins() async throws {
    let folder = try TemporaryFolder()
    let stub = HTTPScript([
      .init(headers: ["Content-Disposition": #"attachment; filename="other.txt""#], body: body)
    ])
    let request = DownloadRequest(url: url, destination: folder.file("mine.bin"))
    let end = try await download(request, with: client(stub, folder: folder))
    #expect(
      end == .finished(end.downloadID, file: folder.file("mine.bin"), bytes: Int64(body.count)))
  }
}

@Suite(.timeLimit(.minutes(10))) struct NetworkLossTests {
  /// Waits for `id`'s status to become `status`.
  private func status(
    _ status: DownloadStatus, of id: DownloadID, in events: AsyncStream<DownloadEvent>
  ) async {
    for await event in events where event == .statusChanged(id, status) { return }
  }

  @Test func anUnreachableHostIsWaitedForAndTheFileResumesFromTheBytesOnDisk() async throws {
    let folder = try TemporaryFolder()
    let (reachability, control) = Reachability.controlled(.unreachable)
    let stub = HTTPScript([
      .init(headers: ["ETag": "\"v1\""], body: body, dropAfter: 400),
      .init(
        status: 206, headers: ["ETag": "\"v1\"", "Content-Range": "bytes 400-999/1000"],
        body: body.suffix(600)),
    ])
    let client = client(
      stub, folder: folder, clock: TestClock(), reachability: reachability
    ) { $0.maxRetries = 0 }
    let events = client.events()
    let download = try await client.start(DownloadRequest(url: url))
    await status(.waitingForNetwork, of: download.id, in: events)
    #expect(stub.requests.count == 1)
    #expect(try await client.list().first?.status == .waitingForNetwork)

    control.set(.reachable)
    var after: [DownloadEvent] = []
    for await event in events where event.downloadID == download.id {
      after.append(event)
      if case .finished = event { break }
      if case .failed = event { break }
    }
    // Once the host is back, the download says it is downloading again.
    #expect(after.first == .statusChanged(download.id, .running))
    #expect(
      after.last == .finished(download.id, file: folder.file("data.bin"), bytes: Int64(body.count)))
    #expect(try Data(contentsOf: folder.file("data.bin")) == body)
    #expect(stub.requests.last?.header("Range") == "bytes=400-")
  }

  @Test func theResourceTimeoutStillAppliesWhileWaiting() async throws {
    let folder = try TemporaryFolder()
    let clock = TestClock()
    let stub = HTTPScript([.init(headers: ["ETag": "\"v1\""], body: body, dropAfter: 400)])
    let client = client(
      stub, folder: folder, clock: clock, reachability: .unreachable
    ) { $0.resourceTimeout = .seconds(60) }
    let events = client.events()
    let download = try await client.start(DownloadRequest(url: url))
    await status(.waitingForNetwork, of: download.id, in: events)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(61))
    #expect(
      await end(of: download.id, in: events) == .failed(download.id, .resourceTimeout(seconds: 60)))
    #expect(stub.requests.count == 1)
  }

  @Test func aHostNeverReachedFailsAfterTheRetriesInsteadOfWaiting() async throws {
    let folder = try TemporaryFolder()
    let stub = HTTPScript([.failure(.connect("refused"))])
    let end = try await download(
      DownloadRequest(url: url),
      with: client(stub, folder: folder, reachability: .unreachable) { $0.maxRetries = 0 })
    guard case .failed(_, .transport) = end else {
      Issue.record("expected a transport failure, got \(end)")
      return
    }
  }

  @Test func aFailureWhileTheHostIsReachableUsesARetry() async throws {
    let folder = try TemporaryFolder()
    let stub = HTTPScript([.failure(.connectionLost("reset"))])
    let end = try await download(
      DownloadRequest(url: url),
      with: client(stub, folder: folder, reachability: .reachable) { $0.maxRetries = 0 })
    guard case .failed(_, .transport) = end else {
      Issue.record("expected a transport failure, got \(end)")
      return
    }
  }

  /// The issue's case: a server killed mid-transfer, on a machine the network reaches (its
  /// connects are refused, so `Reachability.network` says reachable). The drop and the
  /// refusals are retries, as curl, wget and aria2c count them, and the download ends.
  @Test func aServerThatDiesMidTransferFailsAfterTheRetries() async throws {
    let folder = try TemporaryFolder()
    let stub = HTTPScript([
      .init(headers: ["ETag": "\"v1\""], body: body, dropAfter: 400),
      .failure(.connect("Connection refused")),
    ])
    let client = client(stub, folder: folder, reachability: .reachable) { $0.maxRetries = 1 }
    let events = client.events()
    let download = try await client.start(DownloadRequest(url: url))
    var seen: [DownloadEvent] = []
    for await event in events where event.downloadID == download.id {
      seen.append(event)
      if case .failed = event { break }
      if case .finished = event { break }
    }
    #expect(seen.contains(.statusChanged(download.id, .retrying(attempt: 1))))
    #expect(!seen.contains(.statusChanged(download.id, .waitingForNetwork)))
    guard case .failed(_, .transport) = seen.last else {
      Issue.record("expected a transport failure, got \(String(describing: seen.last))")
      return
    }
    #expect(stub.requests.count == 2)
    #expect(FileManager.default.fileExists(atPath: folder.file("data.bin.part").path))
  }

  @Test func anHTTPErrorNeverWaitsForTheNetwork() async throws {
    let folder = try TemporaryFolder()
    let stub = HTTPScript([.init(status: 503)])
    let end = try await download(
      DownloadRequest(url: url),
      with: client(stub, folder: folder, reachability: .unreachable) { $0.maxRetries = 0 })
    #expect(end == .failed(end.downloadID, .httpStatus(503)))
  }
}

@Suite(.timeLimit(.minutes(10))) struct SecretsTests {
  private let secretURL = URL(string: "http://user:s3cret@server.test/files/data.bin")!
  private let headers = ["Cookie": "session=c00kie", "Authorization": "Bearer t0ken", "X-A": "1"]

  @Test func secretsAreSentButNeverStoredNorShown() async throws {
    let folder = try TemporaryFolder()
    let state = try TemporaryFolder()
    let stub = HTTPScript([.init(headers: ["ETag": "\"v1\""], body: body)])
    let client = DownloadClient.live(
      configuration: DownloadConfiguration(outputDirectory: folder.url),
      stateDirectory: state.url, http: stub.client, reachability: .reachable)
    let events = client.events()
    let started = try await client.start(DownloadRequest(url: secretURL, headers: headers))
    #expect(
      await end(of: started.id, in: events)
        == .finished(started.id, file: folder.file("data.bin"), bytes: Int64(body.count)))

    let sent = try #require(stub.requests.first)
    #expect(sent.url == secretURL)
    #expect(sent.header("Cookie") == "session=c00kie")
    #expect(sent.header("Authorization") == "Bearer t0ken")
    #expect(sent.header("X-A") == "1")
    #expect(started.request.url.absoluteString == "http://user:***@server.test/files/data.bin")
    #expect(started.request.headers == ["X-A": "1"])
    let stored = try String(contentsOf: state.file("downloads.jsonl"), encoding: .utf8)
    for secret in ["s3cret", "c00kie", "t0ken"] {
      #expect(!stored.contains(secret))
    }
    #expect(try await client.list().first?.request.url == started.request.url)
  }

  @Test func aRestartedDownloadNeedsItsSecretsAgain() async throws {
    let folder = try TemporaryFolder()
    let store = DownloadStore.inMemory()
    let first = HTTPScript([.init(headers: ["ETag": "\"v1\""], body: body, dropAfter: 400)])
    let firstEnd = try await download(
      DownloadRequest(url: secretURL),
      with: client(first, folder: folder, store: store) { $0.maxRetries = 0 })
    guard case .failed(let id, _) = firstEnd else {
      Issue.record("\(firstEnd)")
      return
    }

    // Resumed by its ID in a new process: the password is not known there.
    let second = HTTPScript([])
    let restarted = client(second, folder: folder, store: store)
    let events = restarted.events()
    try await restarted.resume(id)
    #expect(await end(of: id, in: events) == .failed(id, .missingSecrets))
    #expect(second.requests.isEmpty)

    // The same command again supplies the password, and the download goes on from byte 400.
    let third = HTTPScript([
      .init(
        status: 206, headers: ["ETag": "\"v1\"", "Content-Range": "bytes 400-999/1000"],
        body: body.suffix(600))
    ])
    let again = client(third, folder: folder, store: store)
    let end = try await download(DownloadRequest(url: secretURL), with: again)
    #expect(end == .finished(id, file: folder.file("data.bin"), bytes: Int64(body.count)))
    #expect(third.requests.first?.url == secretURL)
    #expect(third.requests.first?.header("Range") == "bytes=400-")
    #expect(try Data(contentsOf: folder.file("data.bin")) == body)
  }

  @Test func unrecoverableHTTPErrorsFailAtOnce() async throws {
    let folder = try TemporaryFolder()
    let stub = HTTPScript([.failure(.tlsCertificate("self-signed")), .init(body: body)])
    let end = try await download(DownloadRequest(url: url), with: client(stub, folder: folder))
    #expect(
      end == .failed(end.downloadID, .unrecoverable("TLS certificate not trusted: self-signed")))
    #expect(stub.requests.count == 1)
  }
}
