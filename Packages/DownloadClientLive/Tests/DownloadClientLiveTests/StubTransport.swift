import DownloadClientLive
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A scripted server: answers each request with the next reply and records the requests.
final class StubTransport: Sendable {
  struct Reply: Sendable {
    var status = 200
    var headers: [String: String] = [:]
    var body = Data()
    /// Send this many body bytes, then fail as a dropped connection.
    var dropAfter: Int?
    /// Fail before any answer.
    var error: URLError?
  }

  private let state:
    Mutex<(replies: [Reply], requests: [URLRequest], inFlight: Int, maxInFlight: Int)>

  private let beforeEachPiece: @Sendable () -> Void

  init(_ replies: [Reply], beforeEachPiece: @escaping @Sendable () -> Void = {}) {
    state = Mutex((replies, [], 0, 0))
    self.beforeEachPiece = beforeEachPiece
  }

  var requests: [URLRequest] { state.withLock { $0.requests } }
  var maxInFlight: Int { state.withLock { $0.maxInFlight } }

  var transport: Transport {
    Transport { request, receiver in try await self.serve(request, receiver) }
  }

  private func serve(_ request: URLRequest, _ receiver: TransferReceiver) async throws {
    let reply = state.withLock { state -> Reply? in
      state.requests.append(request)
      state.inFlight += 1
      state.maxInFlight = max(state.maxInFlight, state.inFlight)
      return state.replies.isEmpty ? nil : state.replies.removeFirst()
    }
    defer { state.withLock { $0.inFlight -= 1 } }
    guard let reply else { throw URLError(.cannotConnectToHost) }
    if let error = reply.error { throw error }
    var headers = reply.headers
    headers["Content-Length"] = headers["Content-Length"] ?? String(reply.body.count)
    let response = HTTPURLResponse(
      url: request.url!, statusCode: reply.status, httpVersion: "HTTP/1.1", headerFields: headers)!
    guard await receiver.head(response) else { return }
    let body = reply.dropAfter.map { reply.body.prefix($0) } ?? reply.body
    var offset = body.startIndex
    while offset < body.endIndex {
      let end = min(body.endIndex, offset + 100)
      beforeEachPiece()
      guard receiver.body(Data(body[offset..<end])) else { return }
      offset = end
    }
    if reply.dropAfter != nil { throw URLError(.networkConnectionLost) }
  }
}

/// Deterministic file contents.
func content(_ count: Int, seed: UInt8 = 7) -> Data {
  Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ seed })
}

/// A fresh folder, removed when released.
final class TemporaryFolder: Sendable {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("DownloadClientLiveTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}
