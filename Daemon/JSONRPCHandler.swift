import DownloadFeature
import FlyingFox
import Foundation

/// JSON-RPC over HTTP POST: one call or a batch in the body, the answer in the response's.
/// Browsers' front ends (AriaNg) are let in from any origin, as aria2c lets them.
struct JSONRPCHandler: HTTPHandler {
  let service: Aria2Service
  let gate: Gate

  func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
    var headers: HTTPHeaders = [
      HTTPHeader("Access-Control-Allow-Origin"): "*",
      HTTPHeader("Access-Control-Allow-Headers"): "Content-Type",
      HTTPHeader("Access-Control-Allow-Methods"): "POST, GET, OPTIONS",
    ]
    if request.method == .OPTIONS { return HTTPResponse(statusCode: .ok, headers: headers) }
    guard gate.enter(.request) else {
      return HTTPResponse(statusCode: .serviceUnavailable, headers: headers)
    }
    defer { gate.leave(.request) }
    guard let body = try await Self.body(of: request, limit: gate.limits.requestBytes) else {
      return HTTPResponse(statusCode: .payloadTooLarge, headers: headers)
    }
    guard let answer = await service.answer(body) else {
      return HTTPResponse(statusCode: .noContent, headers: headers)
    }
    headers[.contentType] = "application/json-rpc"
    return HTTPResponse(statusCode: .ok, headers: headers, body: answer)
  }

  /// The body of `request`, nil when it is longer than `limit`.
  static func body(of request: HTTPRequest, limit: Int) async throws -> Data? {
    if let count = request.bodySequence.count, count > limit { return nil }
    var body = Data()
    for try await chunk in request.bodySequence {
      body.append(chunk)
      if body.count > limit { return nil }
    }
    return body
  }
}

/// A WebSocket route that answers 503 past the limit of clients.
struct GatedWebSocket: HTTPHandler {
  let gate: Gate
  let handler: WebSocketHTTPHandler

  func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
    guard gate.enter(.webSocket) else { return HTTPResponse(statusCode: .serviceUnavailable) }
    let response = try await handler.handleRequest(request)
    // The place is given back when the client's messages end (WebSocketRPC), or now when
    // the handshake failed.
    if response.statusCode != .switchingProtocols { gate.leave(.webSocket) }
    return response
  }
}
