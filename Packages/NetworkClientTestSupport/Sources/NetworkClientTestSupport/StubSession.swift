import Foundation
import NetworkClient
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A canned HTTP answer.
public struct StubReply: Sendable {
  public var status: Int
  public var body: Data
  public var headers: [String: String]

  public init(status: Int = 200, body: Data = Data(), headers: [String: String] = [:]) {
    self.status = status
    self.body = body
    self.headers = headers
  }

  /// A reply whose body is `json`, sent as UTF-8.
  public static func json(_ json: String, status: Int = 200) -> StubReply {
    StubReply(
      status: status, body: Data(json.utf8), headers: ["Content-Type": "application/json"])
  }
}

/// A stand-in for the network: it records every request and answers each with the next of
/// the given replies, in order. A request beyond the last reply fails with a transport error.
public final class StubSession: Sendable {
  private struct State {
    var requests: [URLRequest] = []
    var replies: [Result<StubReply, NetworkError>]
  }

  private let state: Mutex<State>

  /// A session that answers the requests with `replies`, in order.
  public init(_ replies: [Result<StubReply, NetworkError>]) {
    state = Mutex(State(replies: replies))
  }

  /// A session that answers the requests with `replies`, in order.
  public convenience init(replies: StubReply...) {
    self.init(replies.map { .success($0) })
  }

  /// The requests received so far, in order.
  public var requests: [URLRequest] { state.withLock { $0.requests } }

  /// The URLs of the requests received so far, in order.
  public var requestedURLs: [String] { requests.map { $0.url?.absoluteString ?? "" } }

  /// A client whose requests this session answers.
  public var client: NetworkClient {
    NetworkClient { request in try self.answer(request) }
  }

  private func answer(_ request: URLRequest) throws -> (Data, URLResponse) {
    let next: Result<StubReply, NetworkError>? = state.withLock { state in
      state.requests.append(request)
      return state.replies.isEmpty ? nil : state.replies.removeFirst()
    }
    let url = request.url ?? URL(string: "about:blank")!
    switch next {
    case nil:
      throw NetworkError.transport(
        url: url.absoluteString, error: .connect("StubSession has no reply left for this request"))
    case .failure(let error):
      throw error
    case .success(let reply):
      let response = HTTPURLResponse(
        url: url, statusCode: reply.status, httpVersion: "HTTP/1.1", headerFields: reply.headers)!
      return (reply.body, response)
    }
  }
}
