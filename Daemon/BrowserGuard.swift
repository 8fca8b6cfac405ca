import Foundation
import Hummingbird

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What keeps web pages out: a request addressed to a host name other than `localhost` is
/// refused unless the daemon listens on every interface (a page's own name that resolves to
/// 127.0.0.1, DNS rebinding, cannot reach it); answers carry no
/// `Access-Control-Allow-Origin` unless `--rpc-allow-origin-all` (as aria2c's), so a page of
/// another origin cannot read them; and a daemon without a secret refuses requests from
/// pages of other origins outright, as they could otherwise start downloads blind.
struct BrowserGuard<Context: RequestContext>: RouterMiddleware {
  let access: RPCServer.Access

  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let host = request.head.authority ?? ""
    guard access.listenAll || Self.isLoopbackName(host) else {
      throw HTTPError(.forbidden, message: "The daemon answers requests to localhost only.")
    }
    if !access.hasSecret, !access.allowOriginAll, request.comesFromAnotherOrigin {
      throw HTTPError(.forbidden, message: "A daemon without a secret answers no other origin.")
    }
    var response = try await next(request, context)
    if access.allowOriginAll {
      response.headers[.accessControlAllowOrigin] = "*"
      response.headers[.accessControlAllowHeaders] = "Content-Type"
      response.headers[.accessControlAllowMethods] = "POST, GET, OPTIONS"
    }
    return response
  }

  /// Whether `authority` (a `Host`) names this machine by address or as `localhost`.
  static func isLoopbackName(_ authority: String) -> Bool {
    var host = Substring(authority)
    if host.hasPrefix("["), let end = host.firstIndex(of: "]") {
      host = host[host.index(after: host.startIndex)..<end]
      var address = in6_addr()
      return inet_pton(AF_INET6, String(host), &address) == 1
    }
    if let colon = host.lastIndex(of: ":") { host = host[..<colon] }
    var address = in_addr()
    return host.lowercased() == "localhost" || inet_pton(AF_INET, String(host), &address) == 1
  }
}

extension Request {
  /// Whether a page of another origin sent it: it has an `Origin` (`scheme://host[:port]`)
  /// that is not the page of its own `Host`.
  var comesFromAnotherOrigin: Bool {
    guard let origin = headers[.origin] else { return false }
    guard let separator = origin.range(of: "://") else { return true }
    return origin[separator.upperBound...].lowercased() != (head.authority ?? "").lowercased()
  }
}
