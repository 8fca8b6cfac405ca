import Foundation
import HTTPClient

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends HTTP requests. The one endpoint is the raw transport; the methods in `Requests.swift`
/// check the status and decode on top of it.
public struct NetworkClient: Sendable {
  /// Sends a request and returns the body and the response, whatever its status.
  public var send: @Sendable (URLRequest) async throws -> (Data, URLResponse)

  public init(send: @escaping @Sendable (URLRequest) async throws -> (Data, URLResponse)) {
    self.send = send
  }
}

/// Why a request failed.
public enum NetworkError: Error, Equatable, Sendable {
  /// The request never got an HTTP answer: no connection, a timeout, a reset; `error` says
  /// which, and whether another attempt may help.
  case transport(url: String, error: HTTPError)
  /// The answer was not an HTTP response.
  case notHTTP(url: String)
  /// The server answered with a status outside the accepted range.
  case unacceptableStatus(url: String, status: Int, bodyExcerpt: String)
  /// The body did not decode as the expected type.
  case decoding(url: String, type: String, reason: String)
}

extension NetworkError: CustomStringConvertible, LocalizedError {
  public var description: String {
    switch self {
    case .transport(let url, let error):
      return "cannot reach \(url): \(error)"
    case .notHTTP(let url):
      return "\(url) did not answer with HTTP"
    case .unacceptableStatus(let url, let status, let excerpt):
      let body = excerpt.isEmpty ? "" : ": \(excerpt)"
      return "\(url) answered HTTP \(status)\(body)"
    case .decoding(let url, let type, let reason):
      return "unexpected reply from \(url) (not a valid \(type)): \(reason)"
    }
  }

  public var errorDescription: String? { description }

  /// Whether another attempt may succeed, by the rule of `HTTPError.isRetryable`: a
  /// transport failure that may heal, or a status of 408, 429 or 5xx.
  public var isRetryable: Bool {
    switch self {
    case .transport(_, let error): return error.isRetryable
    case .unacceptableStatus(_, let status, _): return HTTPError.isRetryable(status: status)
    case .notHTTP, .decoding: return false
    }
  }

  /// The HTTP status, when the server answered with one outside the accepted range.
  public var status: Int? {
    if case .unacceptableStatus(_, let status, _) = self { return status }
    return nil
  }
}
