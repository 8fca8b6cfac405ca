import Checksum
import ChecksumTypes
import DownloadClient
import Foundation
import HTTPClient
import Testing

@testable import DownloadClientLive

private let url = URL(string: "http://server.test/file.bin")!

private func head(_ status: Int, _ headers: HTTPHeaders = [:]) -> HTTPResponseHead {
  HTTPResponseHead(status: status, headers: headers, url: url)
}

private func decide(_ head: HTTPResponseHead, offset: Int64, maxSize: Int64? = nil)
  -> ResponseDecision
{
  ResponseDecision.decide(
    head, offset: offset, accepting: 200..<300, maxSize: maxSize,
    now: Date(timeIntervalSince1970: 1_700_000_000))
}

@Suite(.timeLimit(.minutes(10))) struct ResponseDecisionTests {
  @Test func aWholeFileIsWrittenFromZero() {
    #expect(
      decide(head(200, ["Content-Length": "1000"]), offset: 0) == .write(from: 0, total: 1000))
    #expect(decide(head(200), offset: 0) == .write(from: 0, total: nil))
  }

  @Test func a206ThatStartsAtTheOffsetAppends() {
    let partial = head(206, ["Content-Range": "bytes 400-999/1000", "Content-Length": "600"])
    #expect(decide(partial, offset: 400) == .write(from: 400, total: 1000))
  }

  @Test func a200ToARangeStartsTheFileAgainFromZero() {
    #expect(
      decide(head(200, ["Content-Length": "1000"]), offset: 400) == .write(from: 0, total: 1000))
  }

  @Test func a304IsUnchangedOnlyAfterAConditionalRequest() {
    let notModified = head(304)
    #expect(
      ResponseDecision.decide(
        notModified, offset: 0, accepting: 200..<300, maxSize: nil, conditional: true)
        == .unchanged)
    #expect(decide(notModified, offset: 0) == .fail(.httpStatus(304), retryAfter: nil))
    #expect(
      ResponseDecision.decide(
        head(200, ["Content-Length": "5"]), offset: 0, accepting: 200..<300, maxSize: nil,
        conditional: true) == .write(from: 0, total: 5))
  }

  @Test func a206ElsewhereOrWithoutARangeRestarts() {
    for range in ["bytes 0-999/1000", "bytes zz-yy/qq", nil] {
      var headers: HTTPHeaders = [:]
      headers["Content-Range"] = range
      guard case .restart = decide(head(206, headers), offset: 400) else {
        Issue.record("\(String(describing: range))")
        continue
      }
    }
  }

  @Test func anUnacceptedStatusFailsWithTheServersRetryAfter() {
    #expect(decide(head(404), offset: 0) == .fail(.httpStatus(404), retryAfter: nil))
    #expect(
      decide(head(429, ["Retry-After": "7"]), offset: 0)
        == .fail(.httpStatus(429), retryAfter: .seconds(7)))
    #expect(
      decide(head(503, ["Retry-After": "Tue, 14 Nov 2023 22:13:50 GMT"]), offset: 0)
        == .fail(.httpStatus(503), retryAfter: .seconds(30)))
  }

  @Test func aFileOverTheLimitFailsBeforeAnyByte() {
    #expect(
      decide(head(200, ["Content-Length": "1000"]), offset: 0, maxSize: 999)
        == .fail(.tooLarge(limit: 999), retryAfter: nil))
    #expect(
      decide(head(206, ["Content-Range": "bytes 10-999/1000"]), offset: 10, maxSize: 999)
        == .fail(.tooLarge(limit: 999), retryAfter: nil))
  }

  @Test func parsesRetryAfter() {
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    #expect(ResponseDecision.retryAfter("120", now: now) == .seconds(120))
    #expect(
      ResponseDecision.retryAfter("Tue, 14 Nov 2023 22:13:50 GMT", now: now) == .seconds(30))
    #expect(ResponseDecision.retryAfter("soon", now: now) == nil)
    #expect(ResponseDecision.retryAfter(nil, now: now) == nil)
  }
}

@Suite(.timeLimit(.minutes(10))) struct RetryDecisionTests {
  private let timeout = DownloadError.resourceTimeout(seconds: 100)

  private func decide(
    _ error: DownloadError, retryAfter: Duration? = nil, retries: Int = 0,
    timeLeft: Duration = .seconds(100)
  ) -> RetryDecision {
    RetryDecision.after(
      error, retryAfter: retryAfter, retries: retries, maxRetries: 3,
      backoff: Backoff(jitter: 0), unit: 0.5, timeLeft: timeLeft, resourceTimeout: timeout)
  }

  @Test func retryableErrorsWaitLongerEachTime() {
    #expect(decide(.transport("reset")) == .retry(after: .seconds(1)))
    #expect(decide(.idleTimeout(seconds: 60), retries: 1) == .retry(after: .seconds(2)))
    #expect(decide(.httpStatus(503), retries: 2) == .retry(after: .seconds(4)))
  }

  @Test func theServersRetryAfterWins() {
    #expect(decide(.httpStatus(429), retryAfter: .seconds(7)) == .retry(after: .seconds(7)))
  }

  @Test func givesUpAfterTheRetriesOrForErrorsThatCannotHeal() {
    #expect(decide(.transport("reset"), retries: 3) == .giveUp(.transport("reset")))
    for error: DownloadError in [
      .httpStatus(404), .unrecoverable("TLS certificate not trusted"), .missingSecrets,
      .checksumMismatch(
        expected: FileChecksum(.md5, hex: String(repeating: "a", count: 32))!, actual: "b"),
    ] {
      #expect(decide(error) == .giveUp(error))
    }
  }

  @Test func aWaitPastTheResourceTimeoutGivesUpWithIt() {
    #expect(
      decide(.httpStatus(503), retryAfter: .seconds(60), timeLeft: .seconds(30)) == .giveUp(timeout)
    )
  }
}

@Suite(.timeLimit(.minutes(10))) struct DownloadQueueTests {
  private func download(_ id: String, _ status: DownloadStatus, url: String = "http://h/f")
    -> Download
  {
    Download(
      id: DownloadID(id), request: DownloadRequest(url: URL(string: url)!), status: status,
      destination: URL(fileURLWithPath: "/tmp/\(id)"))
  }

  @Test func loadsInOrderAndPausesWhatAnEndedProcessLeftActive() {
    var queue = DownloadQueue([
      DownloadRecord(download: download("b", .running), sequence: 2),
      DownloadRecord(download: download("a", .completed), sequence: 1),
      DownloadRecord(download: download("c", .queued), sequence: 3),
    ])
    #expect(queue.records.map(\.download.id.rawValue) == ["a", "b", "c"])
    #expect(queue.records.map(\.download.status) == [.completed, .paused, .paused])
    #expect(queue.nextQueued { _ in true } == nil)
  }

  @Test func numbersNewRecordsAfterTheOthersAndMatchesRequestsWithoutTheirSecrets() async throws {
    let store = DownloadStore.inMemory()
    let secret = URL(string: "http://user:secret@h/f")!
    let first = try DownloadQueue.insert(
      DownloadRecord(
        download: download("a", .queued, url: "http://user:***@h/f"), sequence: 0,
        needsSecrets: true), into: store
    ).added
    let second = try DownloadQueue.insert(
      DownloadRecord(download: download("b", .queued, url: "http://h/g"), sequence: 0),
      into: store
    ).added
    #expect(first?.sequence == 1)
    #expect(second?.sequence == 2)
    #expect(first?.needsSecrets == true)
    var queue = DownloadQueue()
    for record in [second, first].compactMap(\.self) { queue.append(record) }
    let match = queue.matching(DownloadRequest(url: secret), in: URL(fileURLWithPath: "/tmp"))
    #expect(match?.download.id == DownloadID("a"))
    var started = queue
    #expect(started.nextQueued { _ in true } == DownloadID("a"))
    #expect(started.nextQueued { _ in true } == DownloadID("b"))
    #expect(started.nextQueued { _ in true } == nil)
    queue.remove(DownloadID("a"))
    #expect(queue.nextQueued { _ in true } == DownloadID("b"))
  }

  @Test func aQueuedDownloadThatRunsOrLeftTheQueueIsNotStarted() {
    var queue = DownloadQueue()
    for (index, id) in ["a", "b", "c"].enumerated() {
      queue.append(DownloadRecord(download: download(id, .queued), sequence: index + 1))
    }
    var paused = try! queue.record(DownloadID("a"))
    paused.download.status = .paused
    queue.replace(paused)
    #expect(queue.nextQueued { $0 != DownloadID("b") } == DownloadID("c"))
    paused.download.status = .queued
    queue.replace(paused)
    #expect(queue.nextQueued { _ in true } == DownloadID("a"))
    #expect(queue.nextQueued { _ in true } == nil)
  }

  @Test func insertsChangesAndDeletesRecordsInTheStore() async throws {
    let store = DownloadStore.inMemory()
    let record = DownloadRecord(download: download("a", .queued), sequence: 1)
    _ = try DownloadQueue.insert(record, into: store)
    let changed = try DownloadQueue.change(DownloadID("a"), in: store, status: .running) {
      $0.entityTag = "\"v1\""
    }
    var expected = record
    expected.download.status = .running
    expected.entityTag = "\"v1\""
    #expect(changed == expected)
    #expect(try DownloadQueue.load(from: store).records.map(\.entityTag) == ["\"v1\""])
    try DownloadQueue.delete(DownloadID("a"), from: store)
    #expect(try DownloadQueue.load(from: store).records.isEmpty)
  }

  @Test func theSameRequestAddedByAnotherProcessIsReturnedInsteadOfAdded() async throws {
    let store = DownloadStore.inMemory()
    let first = DownloadRecord(download: download("a", .running), sequence: 1)
    #expect(try DownloadQueue.insert(first, into: store).existing == nil)
    let again = DownloadRecord(download: download("b", .queued), sequence: 2)
    #expect(try DownloadQueue.insert(again, into: store).existing == first)
    #expect(try DownloadQueue.load(from: store).records.count == 1)
  }

  @Test func aNewDownloadWhoseIDIsTakenGetsAnotherOne() async throws {
    let store = DownloadStore.inMemory()
    _ = try DownloadQueue.insert(
      DownloadRecord(download: download("a", .queued, url: "http://h/1"), sequence: 0),
      into: store)
    let second = try DownloadQueue.insert(
      DownloadRecord(download: download("a", .queued, url: "http://h/2"), sequence: 0),
      into: store
    ).added
    #expect(second?.download.id != DownloadID("a"))
    let stored = try store.records()
    #expect(stored.map(\.download.request.url.path) == ["/1", "/2"])
    #expect(Set(stored.map(\.download.id)).count == 2)
  }

  @Test func aChangeNeverBringsBackARecordAnotherProcessDeleted() async throws {
    let store = DownloadStore.inMemory()
    _ = try DownloadQueue.insert(
      DownloadRecord(download: download("a", .queued), sequence: 1), into: store)
    try DownloadQueue.delete(DownloadID("a"), from: store)
    let changed = try DownloadQueue.change(
      DownloadID("a"), in: store, status: .failed(reason: "x"))
    #expect(changed == nil)
    #expect(try DownloadQueue.load(from: store).records.isEmpty)
  }

  @Test func aRequestMatchesOnlyTheDownloadInItsFolder() {
    var queue = DownloadQueue()
    queue.append(DownloadRecord(download: download("a", .completed), sequence: 1))
    let request = DownloadRequest(url: URL(string: "http://h/f")!)
    #expect(queue.matching(request, in: URL(fileURLWithPath: "/tmp/")) != nil)
    #expect(queue.matching(request, in: URL(fileURLWithPath: "/srv")) == nil)
    let named = DownloadRequest(url: request.url, destination: URL(fileURLWithPath: "/tmp/a"))
    #expect(queue.matching(named, in: URL(fileURLWithPath: "/tmp")) == nil)
  }

  @Test func aDoneOrFailedDownloadGivesUpItsFileToANewOne() async throws {
    let store = DownloadStore.inMemory()
    _ = try DownloadQueue.insert(
      DownloadRecord(download: download("a", .completed, url: "http://h/a"), sequence: 1),
      into: store)
    _ = try DownloadQueue.insert(
      DownloadRecord(download: download("b", .failed(reason: "x"), url: "http://h/b"), sequence: 2),
      into: store)
    _ = try DownloadQueue.insert(
      DownloadRecord(download: download("c", .paused, url: "http://h/c"), sequence: 3),
      into: store)
    for (id, taken) in [("a", "/tmp/a"), ("b", "/tmp/b")] {
      var record = DownloadRecord(
        download: download("new-\(id)", .queued, url: "http://other/\(id)"), sequence: 4)
      record.download.destination = URL(fileURLWithPath: taken)
      #expect(try DownloadQueue.insert(record, into: store).existing == nil)
    }
    var clash = DownloadRecord(download: download("d", .queued, url: "http://h/d"), sequence: 5)
    clash.download.destination = URL(fileURLWithPath: "/tmp/c")
    #expect(
      throws: DownloadError.file(
        "/tmp/c is the file of download c (paused, http://h/c); finish it (fetcher downloads resume "
          + "c) or free the name (fetcher downloads cancel c)")
    ) {
      _ = try DownloadQueue.insert(clash, into: store)
    }
    let ids = try DownloadQueue.load(from: store).records.map(\.download.id.rawValue)
    #expect(ids == ["c", "new-a", "new-b"])
  }

  @Test func aDestinationIsReservedForOneDownload() async throws {
    let store = DownloadStore.inMemory()
    _ = try DownloadQueue.insert(
      DownloadRecord(download: download("a", .queued, url: "http://h/a"), sequence: 1), into: store)
    _ = try DownloadQueue.insert(
      DownloadRecord(download: download("b", .queued, url: "http://h/b"), sequence: 2), into: store)
    let taken = URL(fileURLWithPath: "/tmp/a")
    var clash = DownloadRecord(download: download("c", .queued, url: "http://h/c"), sequence: 3)
    clash.download.destination = taken
    #expect(
      throws: DownloadError.file(
        "/tmp/a is the file of download a (queued, http://h/a); finish it (fetcher downloads resume "
          + "a) or free the name (fetcher downloads cancel a)")
    ) {
      _ = try DownloadQueue.insert(clash, into: store)
    }
    #expect(
      throws: DownloadError.file(
        "/tmp/a is the file of download a (queued, http://h/a); finish it (fetcher downloads resume "
          + "a) or free the name (fetcher downloads cancel a)")
    ) {
      try DownloadQueue.change(DownloadID("b"), in: store, status: .running, reserving: taken) {
        $0.download.destination = taken
      }
    }
    let stored = try DownloadQueue.load(from: store).records
    #expect(stored.map(\.download.destination?.path) == ["/tmp/a", "/tmp/b"])
    // Its own destination is free for a download.
    _ = try DownloadQueue.change(
      DownloadID("a"), in: store, status: .running, reserving: taken)
  }

  @Test func recordsWrittenBeforeSecretsAndHeadersStillLoad() throws {
    // A record as earlier versions wrote it: without `needsSecrets` and request headers.
    let record = DownloadRecord(download: download("a", .queued), sequence: 1)
    let line = try JSONSerialization.jsonObject(with: QueueLineWriter.line(record))
    var json = (line as! [String: Any])["record"] as! [String: Any]
    json["needsSecrets"] = nil
    var stored = json["download"] as! [String: Any]
    var request = stored["request"] as! [String: Any]
    request["headers"] = nil
    stored["request"] = request
    json["download"] = stored
    let old = try JSONSerialization.data(withJSONObject: json)
    #expect(!String(decoding: old, as: UTF8.self).contains("headers"))
    #expect(try JSONDecoder().decode(StoredRecord.self, from: old).record == record)
  }
}

@Suite(.timeLimit(.minutes(10))) struct RunningDigestTests {
  @Test func hashesWhatArrivesAndRehashesTheDiskAfterARestart() throws {
    let folder = try TemporaryFolder()
    let part = folder.file("f.part")
    let data = content(300_000)
    try data.prefix(100_000).write(to: part)
    let digest = RunningDigest(.sha256)
    // Resumed at 100,000: the bytes on disk are hashed first.
    digest.start(at: 100_000, of: part)
    let handle = try FileHandle(forWritingTo: part)
    try handle.seekToEnd()
    for start in stride(from: 100_000, to: 300_000, by: 50_000) {
      let piece = data[start..<start + 50_000]
      try handle.write(contentsOf: piece)
      digest.add(Data(piece))
    }
    try handle.close()
    var hasher = Digest(.sha256)
    hasher.update(data)
    let expected = hasher.finalize()
    #expect(try digest.finish(part, size: 300_000) == expected)
    // A size the pieces do not cover is hashed from the file.
    #expect(try digest.finish(part, size: 300_000) == expected)
  }

  /// Each algorithm of a checksum, over a file the pieces did not cover.
  @Test(arguments: DigestAlgorithm.allCases)
  func eachAlgorithmIsComputed(algorithm: DigestAlgorithm) throws {
    let folder = try TemporaryFolder()
    let part = folder.file("f.part")
    try content(1000).write(to: part)
    #expect(
      try RunningDigest(algorithm).finish(part, size: 1000)
        == Digest.hex(algorithm, ofFileAt: part))
  }

}

@Suite(.timeLimit(.minutes(10))) struct SegmentPlanTests {
  @Test func aFileIsCutIntoNearlyEqualSegmentsThatCoverIt() {
    let segments = Segment.plan(total: 10_000_003, count: 4)
    #expect(segments.count == 4)
    #expect(segments.first?.start == 0)
    #expect(segments.last?.end == 10_000_003)
    #expect(zip(segments, segments.dropFirst()).allSatisfy { $0.end == $1.start })
    #expect(
      segments.map { $0.end - $0.start }.max()! - segments.map { $0.end - $0.start }.min()! <= 3)
  }

  @Test func aSmallFileGetsFewerSegments() {
    #expect(Segment.plan(total: 3 << 20, count: 8).count == 3)
    #expect(Segment.plan(total: 1000, count: 8) == [Segment(start: 0, end: 1000)])
  }

  @Test func aSegmentKnowsItsNextByteAndWhenItIsDone() {
    var segment = Segment(start: 100, end: 200, received: 40)
    #expect(segment.next == 140)
    #expect(!segment.isDone)
    segment.received = 100
    #expect(segment.isDone)
  }
}
