import Foundation
import Synchronization
import Unimplemented

extension HTTPClient {
  /// A client that a test did not expect to be used: every request is reported (see
  /// `Unimplemented`) and fails with `HTTPError.unimplemented`, which no caller retries.
  public static let failing = HTTPClient { request, _ in
    throw HTTPError.unimplemented("\(unimplemented("HTTPClient.stream")) (\(request.url))")
  }
}

/// A scripted server for tests: it answers each request with the next reply, in order, and
/// records the requests. A request beyond the last reply fails to connect.
public final class HTTPScript: Sendable {
  /// One canned answer.
  public struct Reply: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: Data
    /// Send this many body bytes, then fail as a dropped connection (or with `error`).
    public var dropAfter: Int?
    /// Fail before any answer; with `dropAfter`, after those bytes.
    public var error: HTTPError?

    public init(
      status: Int = 200, headers: HTTPHeaders = [:], body: Data = Data(), dropAfter: Int? = nil,
      error: HTTPError? = nil
    ) {
      self.status = status
      self.headers = headers
      self.body = body
      self.dropAfter = dropAfter
      self.error = error
    }

    /// A failure before any answer.
    public static func failure(_ error: HTTPError) -> Reply { Reply(error: error) }
  }

  private struct State {
    var replies: [Reply]
    var requests: [HTTPRequest] = []
    var inFlight = 0
    var maxInFlight = 0
  }

  private let state: Mutex<State>
  private let pieceSize: Int
  private let beforeEachPiece: @Sendable () -> Void

  /// A server that answers with `replies`, sending bodies `pieceSize` bytes at a time and
  /// calling `beforeEachPiece` before each.
  public init(
    _ replies: [Reply], pieceSize: Int = 100, beforeEachPiece: @escaping @Sendable () -> Void = {}
  ) {
    state = Mutex(State(replies: replies))
    self.pieceSize = pieceSize
    self.beforeEachPiece = beforeEachPiece
  }

  /// The requests received so far, in order.
  public var requests: [HTTPRequest] { state.withLock { $0.requests } }
  /// The most requests that were in flight at once.
  public var maxInFlight: Int { state.withLock { $0.maxInFlight } }

  /// A client whose requests this server answers.
  public var client: HTTPClient {
    HTTPClient { request, receiver in try await self.serve(request, receiver) }
  }

  private func serve(_ request: HTTPRequest, _ receiver: HTTPReceiver) async throws {
    let reply = state.withLock { state -> Reply? in
      state.requests.append(request)
      state.inFlight += 1
      state.maxInFlight = max(state.maxInFlight, state.inFlight)
      return state.replies.isEmpty ? nil : state.replies.removeFirst()
    }
    defer { state.withLock { $0.inFlight -= 1 } }
    guard let reply else { throw HTTPError.connect("HTTPScript has no reply left") }
    if let error = reply.error, reply.dropAfter == nil { throw error }
    var headers = reply.headers
    headers["Content-Length"] = headers["Content-Length"] ?? String(reply.body.count)
    let head = HTTPResponseHead(status: reply.status, headers: headers, url: request.url)
    guard await receiver.head(head) else { return }
    let body = reply.dropAfter.map { reply.body.prefix($0) } ?? reply.body
    var offset = body.startIndex
    while offset < body.endIndex {
      let end = min(body.endIndex, offset + pieceSize)
      beforeEachPiece()
      guard receiver.body(Data(body[offset..<end])) else { return }
      offset = end
    }
    if reply.dropAfter != nil {
      throw reply.error ?? HTTPError.connectionLost("HTTPScript dropped it")
    }
  }
}
