import DownloadClient
import Foundation
import HTTPClient
import Reachability
import Synchronization
import TestClocks
import Testing

@testable import DownloadClientLive

/// A server of one file that answers `Range: bytes=A-B` with 206 (unless `takesRanges` is
/// false) and `If-None-Match` with 304 while the file is the same, recording the ranges asked
/// for. `replace(with:)` changes the file and its ETag.
private final class RangeServer: Sendable {
  private let file: Mutex<(body: Data, version: Int)>
  let takesRanges: Bool
  /// Each answer ends after this many body bytes, when set, as a dropped connection would.
  let dropAfter = Mutex<Int?>(nil)
  let ranges = Mutex<[String]>([])
  let rates = Mutex<[RateLimit?]>([])

  init(_ body: Data, takesRanges: Bool = true) {
    file = Mutex((body, 1))
    self.takesRanges = takesRanges
  }

  func replace(with body: Data) {
    file.withLock { $0 = (body, $0.version + 1) }
  }

  var client: HTTPClient {
    HTTPClient { request, receiver in
      let range = request.header("Range")
      self.ranges.withLock { $0.append(range ?? "none") }
      self.rates.withLock { $0.append(request.rateLimit) }
      let (body, version) = self.file.withLock { $0 }
      var headers: HTTPHeaders = ["ETag": "\"v\(version)\""]
      if request.header("If-None-Match") == headers["ETag"] {
        _ = await receiver.head(HTTPResponseHead(status: 304, headers: headers, url: request.url))
        return
      }
      var status = 200
      var slice = body[...]
      if self.takesRanges, let range, range.hasPrefix("bytes=") {
        let bounds = range.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        let start = Int(bounds[0])!
        let end = bounds[1].isEmpty ? body.count - 1 : Int(bounds[1])!
        slice = body[start...end]
        status = 206
        headers["Content-Range"] = "bytes \(start)-\(end)/\(body.count)"
      }
      headers["Content-Length"] = "\(slice.count)"
      let head = HTTPResponseHead(status: status, headers: headers, url: request.url)
      guard await receiver.head(head) else { return }
      if let limit = self.dropAfter.withLock({ $0 }) { slice = slice.prefix(limit) }
      var offset = slice.startIndex
      while offset < slice.endIndex {
        let piece = slice[offset..<min(offset + 100_000, slice.endIndex)]
        guard receiver.body(Data(piece)) else { return }
        offset = piece.endIndex
      }
    }
  }
}

@Suite(.timeLimit(.minutes(10))) struct SegmentedTests {
  private func client(
    _ server: RangeServer, folder: TemporaryFolder, segments: Int, rate: Int64? = nil,
    ifChanged: Bool = false, store: DownloadStore = .inMemory()
  ) -> DownloadClient {
    var configuration = DownloadConfiguration(outputDirectory: folder.url, maxRetries: 0)
    configuration.segments = segments
    configuration.maxBytesPerSecond = rate
    configuration.ifChanged = ifChanged
    return DownloadClient.live(
      configuration: configuration, store: store, http: server.client,
      clock: ImmediateClock(), reachability: .reachable)
  }

  private func download(_ client: DownloadClient, limits: DownloadLimits? = nil) async throws
    -> DownloadEvent
  {
    let events = client.events()
    var request = DownloadRequest(url: URL(string: "http://server.test/file.bin")!)
    request.limits = limits
    let download = try await client.start(request)
    for await event in events where event.downloadID == download.id {
      if case .finished = event { return event }
      if case .unchanged = event { return event }
      if case .failed = event { return event }
    }
    throw CancellationError()
  }

  @Test func aFileIsFetchedInSegmentsAndWrittenWhole() async throws {
    let folder = try TemporaryFolder()
    let body = content(4 << 20 + 123)
    let server = RangeServer(body)
    let event = try await download(client(server, folder: folder, segments: 4))
    #expect(
      event == .finished(event.downloadID, file: folder.file("file.bin"), bytes: Int64(body.count)))
    #expect(try Data(contentsOf: folder.file("file.bin")) == body)
    let ranges = server.ranges.withLock { $0 }
    #expect(ranges.first == "bytes=0-0")
    #expect(
      Set(ranges.dropFirst()) == [
        "bytes=0-1048605", "bytes=1048606-2097211", "bytes=2097212-3145817",
        "bytes=3145818-4194426",
      ])
  }

  /// A download's own number of connections (aria2's `split` of one download) over the
  /// configuration's.
  @Test func aDownloadsOwnConnectionsHold() async throws {
    let folder = try TemporaryFolder()
    let body = content(3 << 20)
    let server = RangeServer(body)
    var limits = DownloadLimits()
    limits.connections = 3
    _ = try await download(client(server, folder: folder, segments: 1), limits: limits)
    #expect(try Data(contentsOf: folder.file("file.bin")) == body)
    // The probe, then one range each.
    #expect(server.ranges.withLock { $0 }.count == 4)
  }

  /// The segments' record names the part file, as one connection's does: a run after a crash
  /// between the move and the record knows the file in place is the download's by it.
  @Test func aFileInSegmentsMovedByARunThatEndedIsFinishedByTheNextRun() async throws {
    let folder = try TemporaryFolder()
    let store = DownloadStore.inMemory()
    let body = content(2 << 20)
    let server = RangeServer(body)
    _ = try await download(
      client(server, folder: folder, segments: 2, store: store.failingAtDone()))
    let cut = try #require(try store.records().first)
    #expect(!cut.placing)
    #expect(cut.partFile == PartFile.status(of: folder.file("file.bin"))?.identity)
    let untouched = RangeServer(body)
    let event = try await download(client(untouched, folder: folder, segments: 2, store: store))
    #expect(
      event == .finished(event.downloadID, file: folder.file("file.bin"), bytes: Int64(body.count)))
    #expect(untouched.ranges.withLock { $0 }.isEmpty)
  }

  /// How far the segments got is saved every few MiB: when it cannot be, the transfer stops,
  /// the download paused and saying so, once.
  @Test func progressThatCannotBeSavedPausesTheSegmentsSayingSo() async throws {
    let folder = try TemporaryFolder()
    let filling = FillingStore()
    let server = RangeServer(content(9 << 20))
    // The disk fills once the segments are planned.
    let http = HTTPClient { request, receiver in
      if request.header("Range") != "bytes=0-0" { filling.fill() }
      try await server.client.stream(request, receiver)
    }
    var configuration = DownloadConfiguration(outputDirectory: folder.url, maxRetries: 0)
    configuration.segments = 2
    let client = DownloadClient.live(
      configuration: configuration, store: filling.store, http: http, clock: ImmediateClock(),
      reachability: .reachable)
    let events = client.events()
    let download = try await client.start(
      DownloadRequest(url: URL(string: "http://server.test/file.bin")!))
    var failures: [DownloadError] = []
    for await event in events where event.downloadID == download.id {
      if case .failed(_, let error) = event { failures.append(error) }
      if case .finished = event { Issue.record("finished without its progress saved") }
      if try await client.list().first?.status == .paused { break }
    }
    guard case .file(let reason) = failures.first else {
      Issue.record("expected a failure naming the queue, got \(failures)")
      return
    }
    #expect(failures.count == 1)
    #expect(reason.hasSuffix("); the download is paused"))
  }

  /// A download paused by hand saves how far its segments got as they stop, so that the next
  /// run fetches only the rest (a save refused because it was paused had lost the bytes since
  /// the last one, every few MiB).
  @Test func aPauseByHandKeepsTheSegmentsProgress() async throws {
    let folder = try TemporaryFolder()
    let store = DownloadStore.inMemory()
    let server = RangeServer(content(2 << 20))
    // Each segment sends 300,000 bytes, then waits until it is cancelled.
    let (held, holding) = AsyncStream<Void>.makeStream()
    let http = HTTPClient { request, receiver in
      guard request.header("Range") != "bytes=0-0" else {
        return try await server.client.stream(request, receiver)
      }
      let sent = Mutex(0)
      try await server.client.stream(
        request,
        HTTPReceiver(
          head: { await receiver.head($0) },
          body: { piece in
            let part = sent.withLock { sent in
              let part = piece.prefix(300_000 - sent)
              sent += part.count
              if !part.isEmpty && sent == 300_000 { holding.yield() }
              return part
            }
            return !part.isEmpty && receiver.body(part)
          }))
      // An answer that stalls: it ends when the transfer is cancelled.
      let (stalled, open) = AsyncStream<Void>.makeStream()
      for await _ in stalled {}
      open.finish()
    }
    var configuration = DownloadConfiguration(outputDirectory: folder.url, maxRetries: 0)
    configuration.segments = 2
    let client = DownloadClient.live(
      configuration: configuration, store: store, http: http, clock: ImmediateClock(),
      reachability: .reachable)
    let download = try await client.start(
      DownloadRequest(url: URL(string: "http://server.test/file.bin")!))
    var arrived = held.makeAsyncIterator()
    for _ in 0..<2 { await arrived.next() }
    try await client.pause(download.id)
    // The stopped transfer saves as it ends, after the pause.
    var saved: [Int64] = []
    while saved != [300_000, 300_000] {
      saved = try store.records().first?.segments?.map(\.received) ?? []
      // The suite's time limit cancels a wait that never ends.
      try Task.checkCancellation()
      await Task.yield()
    }
    #expect(try store.records().first?.download.status == .paused)
  }

  @Test func aServerWithoutRangesGetsOneConnection() async throws {
    let folder = try TemporaryFolder()
    let body = content(3 << 20)
    let server = RangeServer(body, takesRanges: false)
    let event = try await download(client(server, folder: folder, segments: 4))
    #expect(
      event == .finished(event.downloadID, file: folder.file("file.bin"), bytes: Int64(body.count)))
    #expect(try Data(contentsOf: folder.file("file.bin")) == body)
    #expect(server.ranges.withLock { $0 } == ["bytes=0-0", "none"])
  }

  /// The probe and both segments read against one budget of the configured rate.
  @Test func aRateLimitIsSharedByTheSegments() async throws {
    let folder = try TemporaryFolder()
    let server = RangeServer(content(2 << 20))
    _ = try await download(client(server, folder: folder, segments: 2, rate: 4000))
    let rates = server.rates.withLock { $0 }
    #expect(rates.count == 3)
    #expect(rates.allSatisfy { $0 != nil && $0 == rates[0] })
    #expect(rates.first??.lowestRate == 4000)
  }

  @Test func aChangedFileIsFetchedAgainInSegmentsWithoutConditionalRanges() async throws {
    let folder = try TemporaryFolder()
    let store = DownloadStore.inMemory()
    let server = RangeServer(content(3 << 20, seed: 1))
    _ = try await download(client(server, folder: folder, segments: 3, store: store))
    let again = client(server, folder: folder, segments: 3, ifChanged: true, store: store)
    let unchanged = try await download(again)
    #expect(
      unchanged == .unchanged(unchanged.downloadID, file: folder.file("file.bin"), bytes: 3 << 20))

    let changed = content(3 << 20, seed: 2)
    server.replace(with: changed)
    server.ranges.withLock { $0 = [] }
    let event = try await download(
      client(server, folder: folder, segments: 3, ifChanged: true, store: store))
    #expect(
      event
        == .finished(event.downloadID, file: folder.file("file.bin"), bytes: Int64(changed.count)))
    #expect(try Data(contentsOf: folder.file("file.bin")) == changed)
    #expect(server.ranges.withLock { $0.count } == 4)
  }

  @Test func aRefreshThatFailedReplacesTheOldFileWhenItEndsLater() async throws {
    let folder = try TemporaryFolder()
    let store = DownloadStore.inMemory()
    let server = RangeServer(content(3 << 20, seed: 1))
    _ = try await download(client(server, folder: folder, segments: 3, store: store))
    let changed = content(3 << 20, seed: 2)
    server.replace(with: changed)
    server.dropAfter.withLock { $0 = 100_000 }
    let cut = try await download(
      client(server, folder: folder, segments: 3, ifChanged: true, store: store))
    guard case .failed = cut else { throw CancellationError() }

    server.dropAfter.withLock { $0 = nil }
    let event = try await download(
      client(server, folder: folder, segments: 3, ifChanged: true, store: store))
    #expect(
      event
        == .finished(event.downloadID, file: folder.file("file.bin"), bytes: Int64(changed.count)))
    #expect(try Data(contentsOf: folder.file("file.bin")) == changed)
  }

  /// The saves an attempt begins on the way end before it does. One that landed later (seen
  /// on a loaded machine) marked a segment of the next plan done, and that run ended short.
  @Test func anAttemptEndsAfterItsSaves() async throws {
    let folder = try TemporaryFolder()
    let body = content(3 << 20)
    let server = RangeServer(body)
    let handle = try PartFile.open(folder.file("file.bin.part"), keeping: 0)
    defer { try? handle.close() }
    let segments = Segment.plan(total: Int64(body.count), count: 3)
    let requests = Dictionary(
      uniqueKeysWithValues: segments.enumerated().map { index, segment in
        var request = HTTPRequest(url: URL(string: "http://server.test/file.bin")!)
        request.rangeStart = segment.start
        request.rangeEnd = segment.end - 1
        return (index, request)
      })
    let saves = Mutex<(begun: Int, ended: Int, atOnce: Int, received: [Int64])>((0, 0, 0, []))
    let transfer = SegmentedTransfer(
      http: server.client, handle: handle, segments: segments, total: Int64(body.count),
      now: { .zero }, deadline: (.seconds(3600), .transport("too late")), progress: { _ in },
      persist: { saved in
        saves.withLock {
          $0.begun += 1
          $0.atOnce = max($0.atOnce, $0.begun - $0.ended)
          $0.received.append(saved.received)
        }
        // A slow store: the attempt would be over long before.
        for _ in 0..<1000 { await Task.yield() }
        saves.withLock { $0.ended += 1 }
        return true
      })
    let (outcome, done) = await transfer.run(requests)
    #expect(outcome == .completed && done.allSatisfy(\.isDone))
    let counted = saves.withLock { $0 }
    // One save as each segment ends, and the last one of the attempt.
    #expect(counted.begun == 4 && counted.ended == counted.begun)
    // One at a time, in the order they were begun.
    #expect(counted.atOnce == 1)
    #expect(counted.received == counted.received.sorted())
  }
}
