import DownloadClient
import DownloadRPC
import Foundation
import HTTPClient
import Synchronization
import TestClocks
import Testing

@testable import DownloadClientLive

/// `DownloadClient.remote`: the calls it makes of a daemon's JSON-RPC, how it reads the
/// answers, and the events it makes of the lists.
@Suite struct RemoteTests {
  private let rpc = URL(string: "http://127.0.0.1:6800/jsonrpc")!

  private func download(_ id: String, _ status: DownloadStatus, received: Int64 = 0) -> Download {
    Download(
      id: DownloadID(id), request: DownloadRequest(url: URL(string: "http://h/\(id)")!),
      status: status, destination: URL(fileURLWithPath: "/data/\(id)"), receivedBytes: received,
      expectedBytes: 100)
  }

  private func reply(_ result: JSONValue) -> HTTPScript.Reply {
    HTTPScript.Reply(body: RPCResponse.message(id: "fetcher", .success(result)).json)
  }

  private func list(_ downloads: [Download]) -> HTTPScript.Reply {
    reply(
      .array(
        downloads.map { RemoteDownload(download: $0, bytesPerSecond: 0, error: nil).value }))
  }

  /// The calls `script` received: method and parameters.
  private func calls(_ script: HTTPScript) throws -> [RPCRequest] {
    try script.requests.map { request in
      #expect(request.method == "POST")
      #expect(request.headers["Content-Type"] == "application/json")
      return try RPCRequest(JSONValue(json: request.body ?? Data()))
    }
  }

  @Test func startAddsTheURIWithItsOptionsAndTheSecret() async throws {
    let added = download("0000000a", .queued)
    let script = HTTPScript([reply("000000000000000a"), list([added])])
    let client = DownloadClient.remote(url: rpc, secret: "s", http: script.client)
    var request = DownloadRequest(
      url: URL(string: "http://h/a.iso")!, destination: URL(fileURLWithPath: "/data/isos/x.iso"),
      headers: ["X-A": "1"], mirrors: [URL(string: "http://m/a.iso")!])
    request.limits = DownloadLimits(bytesPerSecond: 1000)
    request.startsPaused = true
    #expect(try await client.start(request) == added)
    let calls = try calls(script)
    #expect(calls.map(\.method) == ["aria2.addUri", RemoteDownload.listMethod])
    #expect(
      calls[0].params == [
        "token:s", ["http://h/a.iso", "http://m/a.iso"],
        .object([
          "dir": "/data/isos", "out": "x.iso", "max-download-limit": "1000",
          "header": ["X-A: 1"], "pause": "true", "fetcher.join": "true",
        ]),
      ])
    #expect(calls[1].params == ["token:s"])
    // One that adds another says nothing of joining, as an aria2 front end's call.
    request.addsAnother = true
    #expect(RPCConnection.addURI(request)[1]["fetcher.join"] == nil)
  }

  @Test func cancelRemovesAnActiveOneAndTheResultOfAnEndedOne() async throws {
    let script = HTTPScript([
      list([download("00000001", .running)]), reply("0000000000000001"),
      list([download("00000002", .completed)]), reply("OK"),
    ])
    let client = DownloadClient.remote(url: rpc, secret: nil, http: script.client)
    try await client.cancel(DownloadID("00000001"))
    try await client.cancel(DownloadID("00000002"))
    let calls = try calls(script)
    #expect(calls[1].method == "aria2.remove")
    #expect(calls[1].params == ["0000000000000001"])
    #expect(calls[3].method == "aria2.removeDownloadResult")
  }

  @Test func anUnknownDownloadIsSaidSo() async throws {
    let script = HTTPScript([list([])])
    let client = DownloadClient.remote(url: rpc, secret: nil, http: script.client)
    await #expect(throws: DownloadError.unknownDownload(DownloadID("00000009"))) {
      try await client.pause(DownloadID("00000009"))
    }
  }

  @Test func theDaemonsRefusalAndItsAbsenceAreErrors() async throws {
    let refusal = HTTPScript.Reply(
      body: RPCResponse.message(id: "fetcher", .failure(.unauthorized)).json)
    let script = HTTPScript([refusal, .failure(.connect("refused")), HTTPScript.Reply(status: 404)])
    let client = DownloadClient.remote(url: rpc, secret: "x", http: script.client)
    await #expect(throws: DownloadError.unrecoverable("the daemon: Unauthorized")) {
      try await client.list()
    }
    let absent = await #expect(throws: DownloadError.self) { try await client.list() }
    #expect(absent?.isTransport == true)
    let notRPC = await #expect(throws: DownloadError.self) { try await client.list() }
    #expect("\(notRPC!)".contains("HTTP 404"))
  }

  @Test func eventsAreTheChangesBetweenLists() async throws {
    let clock = TestClock()
    let script = HTTPScript([
      list([download("00000001", .running, received: 10), download("00000002", .queued)]),
      list([
        download("00000001", .running, received: 60), download("00000002", .running),
        download("00000003", .queued),
      ]),
      list([download("00000001", .completed, received: 100), download("00000003", .queued)]),
    ])
    let client = DownloadClient.remote(
      url: rpc, secret: nil, http: withoutNotifications(script.client), clock: clock)
    let reading = Task {
      var seen: [DownloadEvent] = []
      for await event in client.events() { seen.append(event) }
      return seen
    }
    // Three lists, then a fourth that the script has no answer for ends the stream.
    for _ in 0..<3 {
      await clock.sleepers(atLeast: 1)
      clock.advance(by: .milliseconds(500))
    }
    #expect(
      await reading.value == [
        .progress(
          DownloadID("00000001"),
          DownloadProgress(
            receivedBytes: 60, expectedBytes: 100, bytesPerSecond: 0,
            estimatedTimeRemaining: nil)),
        .statusChanged(DownloadID("00000002"), .running),
        .added(download("00000003", .queued)),
        .finished(
          DownloadID("00000001"), file: URL(fileURLWithPath: "/data/00000001"), bytes: 100),
        .removed(DownloadID("00000002")),
      ])
  }

  /// `http`, for a daemon that streams no notifications (an older one): `/notifications` is
  /// answered 404.
  private func withoutNotifications(_ http: HTTPClient) -> HTTPClient {
    HTTPClient { request, receiver in
      guard request.url.path == "/notifications" else {
        return try await http.stream(request, receiver)
      }
      _ = await receiver.head(HTTPResponseHead(status: 404, headers: [:], url: request.url))
    }
  }

  /// With the notifications streamed, an idle queue is listed again only when one comes, or
  /// every ten seconds; one that transfers is asked every half second for the downloads that
  /// transfer only, and listed whole when they are no longer the same.
  @Test func notificationsDriveTheListsOfAnIdleQueue() async throws {
    let clock = TestClock()
    let (lines, line) = AsyncStream<String>.makeStream()
    let state = Mutex<[Download]?>([download("00000001", .queued)])
    let methods = Mutex<[String]>([])
    let http = HTTPClient { request, receiver in
      if request.url.path == "/notifications" {
        guard await receiver.head(HTTPResponseHead(status: 200, headers: [:], url: request.url))
        else { return }
        for await text in lines { _ = receiver.body(Data(text.utf8)) }
        return
      }
      let method = try RPCRequest(JSONValue(json: request.body ?? Data())).method
      methods.withLock { $0.append(method) }
      guard var downloads = state.withLock({ $0 }) else {
        throw HTTPError.connect("the daemon is gone")
      }
      if method == RemoteDownload.listTransferringMethod {
        downloads = downloads.filter { RemoteDownload.transfers($0.status) }
      }
      let reply = list(downloads)
      _ = await receiver.head(
        HTTPResponseHead(status: reply.status, headers: [:], url: request.url))
      _ = receiver.body(reply.body)
    }
    let client = DownloadClient.remote(url: rpc, secret: nil, http: http, clock: clock)
    var events = client.events().makeAsyncIterator()
    let whole = RemoteDownload.listMethod
    let transferring = RemoteDownload.listTransferringMethod

    // Idle (queued): the next list waits for a notification or ten seconds, not half a second.
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(5))
    #expect(methods.withLock { $0 } == [whole])
    state.withLock { $0 = [download("00000001", .running, received: 10)] }
    line.yield(#"{"jsonrpc":"2.0","method":"aria2.onDownloadStart","params":[{"gid":"1"}]}"# + "\n")
    #expect(await events.next() == .progress(DownloadID("00000001"), progress(10)))
    #expect(await events.next() == .statusChanged(DownloadID("00000001"), .running))
    #expect(methods.withLock { $0 } == [whole, whole])

    // Transferring: every half second, only what transfers.
    state.withLock { $0 = [download("00000001", .running, received: 50)] }
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .milliseconds(500))
    #expect(await events.next() == .progress(DownloadID("00000001"), progress(50)))
    #expect(methods.withLock { $0 } == [whole, whole, transferring])

    // It ended before its notification came: what transfers changed, so the whole list.
    state.withLock { $0 = [download("00000001", .completed, received: 100)] }
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .milliseconds(500))
    #expect(
      await events.next()
        == .finished(
          DownloadID("00000001"), file: URL(fileURLWithPath: "/data/00000001"), bytes: 100))
    #expect(methods.withLock { $0 } == [whole, whole, transferring, transferring, whole])

    // Idle again: the next list comes after ten seconds; then the daemon is gone.
    state.withLock { $0 = nil }
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(9))
    #expect(methods.withLock { $0 }.count == 5)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(1))
    #expect(await events.next() == nil)
    line.finish()
  }

  private func progress(_ received: Int64) -> DownloadProgress {
    DownloadProgress(
      receivedBytes: received, expectedBytes: 100, bytesPerSecond: 0, estimatedTimeRemaining: nil)
  }

  @Test func aFailureCarriesItsCause() {
    let before = [
      DownloadID("1"): RemoteDownload(
        download: download("1", .running), bytesPerSecond: 0, error: nil)
    ]
    let failed = RemoteDownload(
      download: download("1", .failed(reason: "HTTP 404")), bytesPerSecond: 0,
      error: .httpStatus(404))
    #expect(
      RemoteEvents.changes(from: before, to: [failed]) == [
        .failed(DownloadID("1"), .httpStatus(404))
      ])
  }
}
