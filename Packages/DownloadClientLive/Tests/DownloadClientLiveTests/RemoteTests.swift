import DownloadClient
import DownloadRPC
import Foundation
import HTTPClient
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
    #expect(try await client.start(request) == added)
    let calls = try calls(script)
    #expect(calls.map(\.method) == ["aria2.addUri", RemoteDownload.listMethod])
    #expect(
      calls[0].params == [
        "token:s", ["http://h/a.iso", "http://m/a.iso"],
        .object([
          "dir": "/data/isos", "out": "x.iso", "max-download-limit": "1000",
          "header": ["X-A: 1"],
        ]),
      ])
    #expect(calls[1].params == ["token:s"])
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
    let client = DownloadClient.remote(url: rpc, secret: nil, http: script.client, clock: clock)
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
