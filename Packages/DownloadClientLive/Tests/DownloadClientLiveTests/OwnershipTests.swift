import DownloadClient
import Foundation
import HTTPClient
import Reachability
import Synchronization
import TestClocks
import Testing

@testable import DownloadClientLive

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A server that sends the head and the first `held` bytes of `body` (nothing, not even the
/// head, when `held` is nil), then holds the transfer until `release()` (or until the transfer
/// is cancelled).
private final class HoldingServer: Sendable {
  let body: Data
  let held: Int?
  private let holding: AsyncStream<Void>.Continuation
  private let reachedHold: AsyncStream<Void>
  private let gate: AsyncStream<Void>
  private let opener: AsyncStream<Void>.Continuation

  init(body: Data, held: Int?) {
    self.body = body
    self.held = held
    (reachedHold, holding) = AsyncStream.makeStream()
    (gate, opener) = AsyncStream.makeStream()
  }

  var client: HTTPClient {
    HTTPClient { [self] request, receiver in
      let head = HTTPResponseHead(
        status: 200, headers: ["ETag": "\"v1\"", "Content-Length": "\(body.count)"],
        url: request.url)
      if let held {
        guard await receiver.head(head), receiver.body(body.prefix(held)) else { return }
      }
      holding.yield()
      for await _ in gate { break }
      try Task.checkCancellation()
      if held == nil { guard await receiver.head(head) else { return } }
      _ = receiver.body(body.suffix(from: held ?? 0))
    }
  }

  /// Returns once a transfer holds.
  func untilHolding() async {
    for await _ in reachedHold { return }
  }

  func release() { opener.yield() }
}

/// Two download managers over one store and one claims folder, as two processes have, on one
/// test clock: time passes only when a test advances it.
private struct TwoProcesses {
  let folder: TemporaryFolder
  let store = DownloadStore.inMemory()
  let clock = TestClock()

  init() throws { folder = try TemporaryFolder() }

  func client(_ http: HTTPClient) -> DownloadClient {
    .live(
      configuration: DownloadConfiguration(outputDirectory: folder.url), store: store,
      http: http, clock: clock, reachability: .reachable, claimsFolder: folder.file("claims"))
  }

  /// The first process's download of `url`, from a server that holds it after `held` of its
  /// 1000 bytes (before its head when nil); returns once it holds.
  func startHeldInFirst(after held: Int? = 400) async throws -> (
    HoldingServer, DownloadClient, AsyncStream<DownloadEvent>, Download
  ) {
    let server = HoldingServer(body: content(1000), held: held)
    let first = client(server.client)
    let events = first.events()
    let download = try await first.start(DownloadRequest(url: url))
    await server.untilHolding()
    return (server, first, events, download)
  }
}

private let url = URL(string: "http://server.test/big.bin")!

/// A download of `url` to `folder`'s `big.bin`, as `id` with `status`: the record two
/// processes race for.
private func raceRecord(_ id: String, _ status: DownloadStatus, in folder: TemporaryFolder)
  -> DownloadRecord
{
  DownloadRecord(
    download: Download(
      id: DownloadID(id), request: DownloadRequest(url: url), status: status,
      destination: folder.file("big.bin")),
    sequence: 0)
}

/// A queue in memory that holds `record` (`shared`), and this process's store of it
/// (`store`), in which another process finishes the download (its 1,000 bytes at the
/// destination, the record done) once: right after the first of this process's transactions
/// after which `when` holds of the stored record.
private func finishedElsewhere(
  _ record: DownloadRecord,
  when condition: @escaping @Sendable (DownloadRecord) -> Bool = { _ in true }
) throws -> (shared: DownloadStore, store: DownloadStore) {
  let shared = DownloadStore.inMemory()
  try shared.transaction { _ = try $0.insert(record) }
  let id = record.download.id
  let finished = Mutex(false)
  let store = DownloadStore(transaction: { body in
    try shared.transaction(body)
    guard var stored = try DownloadQueue.stored(id, in: shared), condition(stored),
      finished.withLock({ done in
        defer { done = true }
        return !done
      }),
      let destination = stored.download.destination
    else { return }
    try content(1000).write(to: destination)
    stored.download.status = .completed
    stored.download.receivedBytes = 1000
    stored.download.expectedBytes = 1000
    try shared.transaction { $0.put(stored) }
  })
  return (shared, store)
}

@Suite(.timeLimit(.minutes(10))) struct OwnershipTests {
  @Test func aSecondProcessNeverWritesADownloadTheFirstIsWriting() async throws {
    let processes = try TwoProcesses()
    let (server, _, events, download) = try await processes.startHeldInFirst()

    let untouched = HTTPScript([])
    let second = processes.client(untouched.client)
    let busy = DownloadError.busy(download.id, pid: getpid())
    await #expect(throws: busy) { try await second.start(DownloadRequest(url: url)) }
    await #expect(throws: busy) { try await second.resume(download.id) }
    await #expect(throws: busy) { try await second.pause(download.id) }
    #expect(untouched.requests.isEmpty)
    let part = processes.folder.file("big.bin.part")
    #expect(try Data(contentsOf: part) == content(1000).prefix(400))

    server.release()
    for await event in events {
      if case .finished(download.id, let file, _) = event {
        #expect(try Data(contentsOf: file) == content(1000))
        break
      }
    }
  }

  /// The list asks the claim before it says paused: another process writes it, held in the
  /// middle of its body, or before its first answer, when its record still says queued (a
  /// start writes nothing).
  @Test(arguments: [400, nil])
  func aDownloadAnotherProcessWritesIsListedAsRunning(heldAfter bytes: Int?) async throws {
    let processes = try TwoProcesses()
    let (server, _, events, download) = try await processes.startHeldInFirst(after: bytes)
    let second = processes.client(HTTPScript([]).client)
    #expect(try await second.list().map(\.status) == [.running])
    server.release()
    for await event in events where event.downloadID == download.id {
      if case .finished = event { break }
    }
    #expect(try await second.list().map(\.status) == [.completed])
  }

  @Test func aDownloadWhoseProcessEndedIsListedAsPaused() async throws {
    let processes = try TwoProcesses()
    let record = DownloadRecord(
      download: Download(
        id: DownloadID("gone0001"), request: DownloadRequest(url: url), status: .running,
        destination: processes.folder.file("big.bin")),
      sequence: 0)
    try processes.store.transaction { _ = try $0.insert(record) }
    let listed = try await processes.client(HTTPScript([]).client).list()
    #expect(listed.map(\.status) == [.paused])
  }

  /// Another process finished the download after this one resumed it and before this one
  /// claimed it (the two processes of FaultTests' race): it is done here too, nothing is
  /// fetched, and its record and file stay as that process left them, not failed because the
  /// file is there.
  @Test func aDownloadAnotherProcessFinishedBeforeThisOneClaimedItStaysDone() async throws {
    let folder = try TemporaryFolder()
    let destination = folder.file("big.bin")
    let paused = raceRecord("race0001", .paused, in: folder)
    let id = paused.download.id
    // The other process finishes it as soon as this one has queued it again.
    let (shared, store) = try finishedElsewhere(paused) { $0.download.status == .queued }
    let untouched = HTTPScript([])
    let second = client(untouched, folder: folder, store: store)
    let events = second.events()
    _ = try await second.start(DownloadRequest(url: url))
    for await event in events where event.downloadID == id {
      if case .failed(_, let error) = event {
        Issue.record("failed: \(error)")
        break
      }
      if case .finished(_, let file, let bytes) = event {
        #expect(file == destination)
        #expect(bytes == 1000)
        break
      }
    }
    #expect(untouched.requests.isEmpty)
    #expect(try Data(contentsOf: destination) == content(1000))
    #expect(try DownloadQueue.stored(id, in: shared)?.download.status == .completed)
    #expect(try await second.list().map(\.status) == [.completed])
  }

  /// This process read the queue while another wrote the download, which that process
  /// finished before this one started the same URL (the race FaultTests saw on a loaded
  /// machine): the start finds it done, fetches nothing, and never queues it again over that
  /// process's record, which stays done.
  @Test func aDownloadFinishedElsewhereSinceThisProcessLookedIsNotQueuedAgain() async throws {
    let folder = try TemporaryFolder()
    let destination = folder.file("big.bin")
    let record = raceRecord("race0002", .queued, in: folder)
    let id = record.download.id
    // The other process finishes it as soon as this one has read the queue.
    let (shared, store) = try finishedElsewhere(record)
    let untouched = HTTPScript([])
    let second = client(untouched, folder: folder, store: store)
    let started = try await second.start(DownloadRequest(url: url))
    #expect(started.status == .completed)
    #expect(try await second.list().map(\.status) == [.completed])
    #expect(untouched.requests.isEmpty)
    #expect(try DownloadQueue.stored(id, in: shared)?.download.status == .completed)
    #expect(try Data(contentsOf: destination) == content(1000))
  }

  @Test func aCancelFromAnotherProcessStopsTheWriterAndRemovesEverything() async throws {
    let processes = try TwoProcesses()
    let (server, first, events, download) = try await processes.startHeldInFirst()

    // The second asks and waits; the first looks for requests four times a second. Time
    // passes only while both wait on the clock, or once the first has let go of the download.
    let claims = Claims(folder: processes.folder.file("claims"))
    await processes.clock.sleepers(atLeast: 1)  // the first's look
    let cancelling = Task { try await processes.client(HTTPScript([]).client).cancel(download.id) }
    let time = Task {
      while !Task.isCancelled {
        await processes.clock.sleepers(atLeast: 1)
        if Task.isCancelled { break }
        if processes.clock.sleeperCount < 2 && claims.isHeld(download.id) {
          await Task.yield()
        } else {
          processes.clock.advance(by: .milliseconds(10))
        }
      }
    }
    defer { time.cancel() }
    try await cancelling.value
    // At the first look after the request, and the next try of the claim after that.
    #expect(processes.clock.now.offset <= .milliseconds(300))
    #expect(!FileManager.default.fileExists(atPath: processes.folder.file("big.bin.part").path))
    #expect(try processes.store.records() == [])
    for await event in events {
      if case .failed = event { Issue.record("the cancelled download failed: \(event)") }
      if event == .removed(download.id) { break }
    }
    server.release()
    #expect(try await first.list().isEmpty)
    // The claim is free again: nothing is left that a new start would wait for.
    #expect(!claims.isHeld(download.id))
    let files = try FileManager.default.contentsOfDirectory(
      atPath: processes.folder.file("claims").path)
    #expect(files.allSatisfy { !$0.hasPrefix(download.id.rawValue) })
  }

  /// The asking process waits for its patience on its clock, asking all along, then says who
  /// holds the download.
  @Test func aHolderThatNeverLetsGoLeavesTheCancellerBusyAfterItsPatience() async throws {
    let folder = try TemporaryFolder()
    let claims = Claims(folder: folder.file("claims"))
    let id = DownloadID("held0001")
    let held = try claims.claim(id)  // another descriptor, as another process holds it
    defer { held.release() }
    let clock = TestClock()
    let asking = Task { try await claims.claimCancelling(id, clock: clock, patience: .seconds(1)) }
    let time = Task {
      while !Task.isCancelled {
        await clock.sleepers(atLeast: 1)
        if Task.isCancelled { break }  // the asking is over
        #expect(held.cancelRequested)
        clock.advance(by: .milliseconds(20))
      }
    }
    defer { time.cancel() }
    await #expect(throws: DownloadError.busy(id, pid: getpid())) {
      _ = try await asking.value
    }
    #expect(clock.now.offset == .seconds(1))
    #expect(!held.cancelRequested)
  }

  @Test func twoDownloadsNamedAlikeByTheServerKeepTheirOwnFiles() async throws {
    let folder = try TemporaryFolder()
    let bodies = ["a.bin": content(1000, seed: 1), "b.bin": content(1000, seed: 2)]
    let (bothAsked, asked) = AsyncStream<Void>.makeStream()
    let counter = Counter()
    // Both answers name the file `same.bin`; each waits until both requests have arrived.
    let http = HTTPClient { request, receiver in
      let body = bodies[request.url.lastPathComponent]!
      if counter.increment() == 2 { asked.finish() }
      for await _ in bothAsked {}
      let head = HTTPResponseHead(
        status: 200,
        headers: ["Content-Disposition": "attachment; filename=same.bin"], url: request.url)
      guard await receiver.head(head) else { return }
      _ = receiver.body(body)
    }
    let client = DownloadClient.live(
      configuration: DownloadConfiguration(outputDirectory: folder.url), store: .inMemory(),
      http: http, clock: ImmediateClock(), reachability: .reachable)
    let events = client.events()
    let a = try await client.start(
      DownloadRequest(url: URL(string: "http://server.test/a.bin")!))
    let b = try await client.start(
      DownloadRequest(url: URL(string: "http://server.test/b.bin")!))
    var files: [DownloadID: URL] = [:]
    var ended = 0
    for await event in events {
      if case .finished(let id, let file, _) = event { files[id] = file }
      if case .failed(let id, let error) = event { Issue.record("\(id) failed: \(error)") }
      if case .finished = event { ended += 1 }
      if case .failed = event { ended += 1 }
      if ended == 2 { break }
    }
    // One gets the server's name; the other keeps the name from its URL. Each file holds its
    // own bytes.
    let names = Set(files.values.map(\.lastPathComponent))
    #expect(names == ["same.bin", "a.bin"] || names == ["same.bin", "b.bin"])
    for (id, file) in files {
      let expected = id == a.id ? bodies["a.bin"] : bodies["b.bin"]
      #expect(try Data(contentsOf: file) == expected)
    }
    #expect(Set(files.keys) == [a.id, b.id])
  }
}

@Suite(.timeLimit(.minutes(10))) struct NoProgressTests {
  private func client(_ stub: HTTPScript, folder: TemporaryFolder, retries: Int)
    -> DownloadClient
  {
    var configuration = DownloadConfiguration(outputDirectory: folder.url)
    configuration.maxRetries = retries
    return .live(
      configuration: configuration, store: .inMemory(), http: stub.client,
      clock: ImmediateClock(), reachability: .reachable, random: { 0.5 })
  }

  private func end(_ client: DownloadClient) async throws -> DownloadEvent? {
    let events = client.events()
    _ = try await client.start(DownloadRequest(url: url))
    for await event in events {
      if case .finished = event { return event }
      if case .failed = event { return event }
    }
    return nil
  }

  @Test func aGarbledContentRangeUsesUpTheRetriesInsteadOfRestartingForever() async throws {
    let folder = try TemporaryFolder()
    let garbled = HTTPScript.Reply(
      status: 206, headers: ["ETag": "\"v1\"", "Content-Range": "bytes zz-yy/qq"],
      body: content(1000))
    let stub = HTTPScript(
      [.init(headers: ["ETag": "\"v1\""], body: content(1000), dropAfter: 400)]
        + Array(repeating: garbled, count: 20))
    let event = try await end(client(stub, folder: folder, retries: 3))
    guard case .failed(_, .notContinued(let reason)) = event else {
      Issue.record("expected a failure, got \(String(describing: event))")
      return
    }
    #expect(reason.contains("bytes zz-yy/qq"))
    // The first attempt wrote 400 bytes; then three restarts, each a retry, and no more.
    #expect(stub.requests.count == 4)
  }

  @Test func theSamePrefixAgainAndAgainUsesUpTheRetries() async throws {
    let folder = try TemporaryFolder()
    // A server without validators that drops every connection after the same 400 bytes.
    let dropping = HTTPScript.Reply(body: content(1000), dropAfter: 400)
    let stub = HTTPScript(Array(repeating: dropping, count: 20))
    let event = try await end(client(stub, folder: folder, retries: 2))
    guard case .failed(_, .transport) = event else {
      Issue.record("expected a transport failure, got \(String(describing: event))")
      return
    }
    #expect(stub.requests.count == 3)
  }
}

/// A thread-safe count.
private final class Counter: Sendable {
  private let value = Mutex(0)

  /// Adds one and returns the new count.
  func increment() -> Int {
    value.withLock {
      $0 += 1
      return $0
    }
  }
}
