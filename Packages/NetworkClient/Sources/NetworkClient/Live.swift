import Foundation
import HTTPClient

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension NetworkClient {
  /// A client that sends through `http` (libcurl in the app) and collects the body. Nothing
  /// is cached: every request reaches the server. An exchange that takes longer than
  /// `timeLimit` in all fails (`HTTPError.timeLimit`), whatever the server sends meanwhile.
  public static func live(http: HTTPClient, timeLimit: Duration? = nil) -> NetworkClient {
    NetworkClient { request in
      guard let url = request.url else {
        throw NetworkError.transport(url: "", error: .invalidURL("no URL"))
      }
      var headers = HTTPHeaders()
      for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
        headers[name] = value
      }
      var sent = HTTPRequest(
        method: request.httpMethod ?? "GET", url: url, headers: headers,
        idleTimeout: .seconds(max(1, Int(request.timeoutInterval))))
      sent.timeLimit = timeLimit
      let head: HTTPResponseHead
      let body: Data
      do {
        (head, body) = try await http.data(for: sent)
      } catch let error as HTTPError {
        throw NetworkError.transport(url: url.redactingPassword.absoluteString, error: error)
      }
      var fields: [String: String] = [:]
      for field in head.headers {
        fields[field.name] = fields[field.name].map { $0 + ", " + field.value } ?? field.value
      }
      guard
        let response = HTTPURLResponse(
          url: head.url, statusCode: head.status, httpVersion: head.version,
          headerFields: fields)
      else { throw NetworkError.notHTTP(url: url.redactingPassword.absoluteString) }
      return (body, response)
    }
  }
}
