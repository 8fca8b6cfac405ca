import DownloadClient
import DownloadClientLive
import Foundation
import HTTPClient
import Synchronization
import TestClocks
import Testing

/// A server whose every answer sends its head and a first 1,000 bytes of 3,000, then holds the
/// rest until `release()`, or until its transfer is stopped. Its requests come out of
/// `requests` as they arrive.
private final class HeldServer: Sendable {
  let requests = AsyncStream<HTTPRequest>.makeStream()
  /// Whether the transfers go on, and those that wait meanwhile.
  private let gates = Mutex<(released: Bool, waiting: [AsyncStream<Void>.Continuation])>(
    (false, []))

  var client: HTTPClient {
    HTTPClient { request, receiver in
      self.requests.continuation.yield(request)
      let start = request.rangeStart ?? 0
      var headers: HTTPHeaders = ["ETag": "\"v1\"", "Content-Length": String(3000 - start)]
      if start > 0 { headers["Content-Range"] = "bytes \(start)-2999/3000" }
      let head = HTTPResponseHead(status: start > 0 ? 206 : 200, headers: headers, url: request.url)
      guard await receiver.head(head) else { return }
      let first = min(1000, 3000 - Int(start))
      guard receiver.body(Data(count: first)) else { return }
      await self.held()
      guard !Task.isCancelled else { return }
      _ = receiver.body(Data(count: 3000 - Int(start) - first))
    }
  }

  /// Lets every transfer held, and every later one, finish.
  func release() {
    let waiting = gates.withLock { gates in
      gates.released = true
      defer { gates.waiting = [] }
      return gates.waiting
    }
    for gate in waiting { gate.finish() }
  }

  /// Waits for `release()`; a stream's wait ends when its task is cancelled too.
  private func held() async {
    let gate = AsyncStream<Void>.makeStream()
    let released = gates.withLock { gates in
      if !gates.released { gates.waiting.append(gate.continuation) }
      return gates.released
    }
    if released { return }
    for await _ in gate.stream {}
  }
}

@Suite(.timeLimit(.minutes(2))) struct ChangeTests {
  private let url = URL(string: "http://server.test/files/held.bin")!

  /// The live client over `server`, its claims in `folder` as the daemon's are in its state
  /// folder: a task that has not let go of a download's claim keeps the next from it. Its
  /// clock stands still: nothing here waits for time.
  private func client(_ server: HeldServer, folder: TemporaryFolder, concurrency: Int = 4)
    -> DownloadClient
  {
    var configuration = DownloadConfiguration(outputDirectory: folder.url)
    configuration.maxConcurrentDownloads = concurrency
    return .live(
      configuration: configuration, store: .inMemory(), http: server.client,
      clock: TestClock(), reachability: .reachable, random: { 0.5 },
      claimsFolder: folder.file("claims"))
  }

  @Test func aPauseAndAResumeAtOnceGoOn() async throws {
    let folder = try TemporaryFolder()
    let server = HeldServer()
    let client = client(server, folder: folder)
    let events = client.events()
    var requests = server.requests.stream.makeAsyncIterator()
    let download = try await client.start(DownloadRequest(url: url))
    _ = await requests.next()
    for _ in 0..<20 {
      try await client.pause(download.id)
      try await client.resume(download.id)
    }
    _ = await requests.next()
    server.release()
    let end = await end(of: download.id, in: events)
    #expect(end == .finished(download.id, file: folder.file("held.bin"), bytes: 3000), "\(end)")
  }

  @Test func manyArePausedInOneGoAndNoneStartsMeanwhile() async throws {
    let folder = try TemporaryFolder()
    let server = HeldServer()
    let client = client(server, folder: folder, concurrency: 1)
    var requests = server.requests.stream.makeAsyncIterator()
    let ids = try await (0..<3).asyncMap { index in
      try await client.start(DownloadRequest(url: url.appendingPathExtension("\(index)"))).id
    }
    _ = await requests.next()
    let fourth = try await client.start(DownloadRequest(url: url.appendingPathExtension("x")))
    try await client.pause(ids + [fourth.id])
    #expect(try await client.list().map(\.status) == [.paused, .paused, .paused, .paused])
    try await client.resume(ids[2])
    // The first free slot goes to the one resumed: none of the paused took it.
    #expect(try #require(await requests.next()).url.pathExtension == "2")
    // The others, resumed in one go, wait their turn in order.
    try await client.resume(ids + [fourth.id])
    #expect(try await client.list().map(\.status) == [.queued, .queued, .running, .queued])
    server.release()
  }

  /// A client of one download at once over `server`, its first download under way, and the
  /// server's requests after that one's.
  private func oneUnderWay(_ server: HeldServer, folder: TemporaryFolder) async throws -> (
    client: DownloadClient, running: Download, requests: AsyncStream<HTTPRequest>.Iterator
  ) {
    let client = client(server, folder: folder, concurrency: 1)
    var requests = server.requests.stream.makeAsyncIterator()
    let running = try await client.start(DownloadRequest(url: url))
    _ = await requests.next()
    return (client, running, requests)
  }

  @Test func aWaitingDownloadMovedStartsInItsNewPlace() async throws {
    let folder = try TemporaryFolder()
    let server = HeldServer()
    let (client, running, requests) = try await oneUnderWay(server, folder: folder)
    var later = requests
    let move = try #require(client.move)
    let ids = try await ["a", "b", "c"].asyncMap { name in
      try await client.start(DownloadRequest(url: url.appendingPathExtension(name))).id
    }
    #expect(try await move(ids[2], 0) == 0)
    // Past the end is the last place.
    #expect(try await move(ids[0], 99) == 2)
    let names = try await client.list().map { $0.request.url.pathExtension }
    #expect(names == ["bin", "c", "b", "a"])
    // Only a waiting download moves.
    await #expect(throws: DownloadError.self) { try await move(running.id, 0) }
    // The slot the first leaves goes to the one moved first.
    try await client.pause(running.id)
    #expect(try #require(await later.next()).url.pathExtension == "c")
    server.release()
  }

  @Test func aDownloadIsRenamedBeforeItsFirstByteOnly() async throws {
    let folder = try TemporaryFolder()
    let server = HeldServer()
    let (client, running, _) = try await oneUnderWay(server, folder: folder)
    let rename = try #require(client.rename)
    let waiting = try await client.start(DownloadRequest(url: url.appendingPathExtension("w")))
    try Data("mine".utf8).write(to: folder.file("taken.bin"))
    let renamed = try await rename(waiting.id, folder.file("other.bin"))
    #expect(renamed.destination == folder.file("other.bin"))
    #expect(renamed.request.destination == folder.file("other.bin"))
    // A taken name is not written over (with auto-file-renaming, a free one is taken, as
    // for a new download).
    await #expect(throws: DownloadError.destinationExists(folder.file("taken.bin").path)) {
      try await rename(waiting.id, folder.file("taken.bin"))
    }
    #expect(try Data(contentsOf: folder.file("taken.bin")) == Data("mine".utf8))
    await #expect(throws: DownloadError.self) {
      try await rename(running.id, folder.file("late.bin"))
    }
    let events = client.events()
    server.release()
    #expect(
      await end(of: waiting.id, in: events)
        == .finished(waiting.id, file: folder.file("other.bin"), bytes: 3000))
  }

  @Test func aNewLimitOfARunningDownloadHoldsAtOnce() async throws {
    let folder = try TemporaryFolder()
    let server = HeldServer()
    let client = client(server, folder: folder)
    let events = client.events()
    var requests = server.requests.stream.makeAsyncIterator()
    let download = try await client.start(DownloadRequest(url: url))
    let first = try #require(await requests.next())
    #expect(first.rateLimit?.lowestRate == nil)
    var limited = DownloadRequest(url: url)
    limited.limits = DownloadLimits(bytesPerSecond: 5000)
    _ = try await client.start(limited)
    // The transfer under way keeps it, as aria2c's does: no second request.
    #expect(first.rateLimit?.lowestRate == 5000)
    server.release()
    #expect(await end(of: download.id, in: events) != .removed(download.id))
    #expect(try Data(contentsOf: folder.file("held.bin")).count == 3000)
  }

  @Test func theSharedRateHoldsAtOnceForTheDownloadsUnderWay() async throws {
    let folder = try TemporaryFolder()
    let server = HeldServer()
    let client = client(server, folder: folder)
    let events = client.events()
    var requests = server.requests.stream.makeAsyncIterator()
    let download = try await client.start(DownloadRequest(url: url))
    let first = try #require(await requests.next())
    #expect(first.rateLimit?.lowestRate == nil)
    try await client.change(.maxBytesPerSecond(8000))
    #expect(first.rateLimit?.lowestRate == 8000)
    try await client.change(.maxBytesPerSecond(nil))
    #expect(first.rateLimit?.lowestRate == nil)
    await #expect(throws: DownloadError.self) { try await client.change(.maxBytesPerSecond(0)) }
    server.release()
    #expect(await end(of: download.id, in: events) != .removed(download.id))
    // One transfer did it all: none was started again.
    server.requests.continuation.finish()
    var more = 0
    while await requests.next() != nil { more += 1 }
    #expect(more == 0)
  }

  @Test func moreAtOnceStartsTheQueuedAtOnce() async throws {
    let folder = try TemporaryFolder()
    let server = HeldServer()
    let client = client(server, folder: folder, concurrency: 1)
    var requests = server.requests.stream.makeAsyncIterator()
    let a = try await client.start(DownloadRequest(url: url.appendingPathExtension("a")))
    let b = try await client.start(DownloadRequest(url: url.appendingPathExtension("b")))
    #expect(try #require(await requests.next()).url.pathExtension == "a")
    #expect(try await client.list().map(\.status) == [.running, .queued])
    try await client.change(.maxConcurrentDownloads(2))
    #expect(try #require(await requests.next()).url.pathExtension == "b")
    await #expect(throws: DownloadError.self) {
      try await client.change(.maxConcurrentDownloads(0))
    }
    let events = client.events()
    server.release()
    for id in [a.id, b.id] { #expect(await end(of: id, in: events) != .removed(id)) }
  }
}

extension Sequence {
  /// The results of `transform` on each element, in order, one after another.
  fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
    var results: [T] = []
    for element in self { results.append(try await transform(element)) }
    return results
  }
}
