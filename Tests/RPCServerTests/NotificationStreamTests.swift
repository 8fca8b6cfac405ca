import Daemon
import DownloadClient
import DownloadClientLive
import DownloadRPCService
import Foundation
import HTTPClient
import HTTPClientLive
import Synchronization
import TestClocks
import Testing

/// The owner's socket streams the notifications (`GET /notifications`), so that the command
/// line's `DownloadClient.remote`, which has no WebSocket, hears of a change at once instead of
/// asking for every download twice a second.
@Suite(.timeLimit(.minutes(10))) struct NotificationStreamTests {
  private let id = DownloadID("0000000a")

  private func download(_ status: DownloadStatus) -> Download {
    Download(
      id: id, request: DownloadRequest(url: URL(string: "http://h/a.iso")!), status: status,
      destination: URL(fileURLWithPath: "/data/a.iso"), expectedBytes: 100)
  }

  /// The remote's clock does not move until the daemon has stopped: each event comes from a
  /// notification.
  @Test func theRemoteManagerHearsOfAChangeAtOnce() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("NotificationStreamTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let socket = folder.appendingPathComponent("daemon.sock")

    let downloads = Mutex<[Download]>([])
    let (listed, list) = AsyncStream<Void>.makeStream()
    let (events, emit) = AsyncStream<DownloadEvent>.makeStream()
    let manager = DownloadClient(
      start: { _ in throw DownloadError.unrecoverable("none") }, pause: { _ in },
      resume: { _ in }, cancel: { _ in }, cancelAll: {},
      list: {
        defer { list.yield() }
        return downloads.withLock { $0 }
      },
      events: { events })
    let service = Aria2Service(
      client: manager,
      settings: Aria2Service.Settings(folder: folder, secret: "s3cret", version: "9.9.9"),
      shutdown: {})
    await service.start()
    let server = RPCServer(service: service, port: 0, socket: socket, access: RPCServer.Access())
    let port = try await server.start()

    let clock = TestClock()
    var connection = HTTPConfiguration(proxy: "")
    connection.unixSocket = socket.path
    let remote = DownloadClient.remote(
      url: URL(string: "http://localhost/jsonrpc")!, secret: "s3cret",
      http: .live(configuration: connection), clock: clock)
    var seen = remote.events().makeAsyncIterator()
    var lists = listed.makeAsyncIterator()
    await lists.next()  // the first list, taken once the stream is subscribed

    downloads.withLock { $0 = [download(.running)] }
    emit.yield(.statusChanged(id, .running))
    #expect(await seen.next() == .added(download(.running)))

    downloads.withLock { $0 = [download(.paused)] }
    emit.yield(.statusChanged(id, .paused))
    #expect(await seen.next() == .statusChanged(id, .paused))

    // Not on the port, where a web page or another user could listen.
    let answer = try await RawClient.get("/notifications", port: port)
    #expect(answer.status == 404)

    // Stopped, the daemon ends the stream; a list may still be answered while it stops, and
    // the next one, half a second later on the remote's clock, is not.
    await server.stop()
    await service.stop()
    let ticking = Task {
      while !Task.isCancelled {
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .milliseconds(500))
        await Task.yield()
      }
    }
    #expect(await seen.next() == nil)
    ticking.cancel()
  }
}
