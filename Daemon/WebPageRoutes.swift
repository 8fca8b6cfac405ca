import HTTPTypes
import Hummingbird

/// The daemon's own page at `/`, with its script and style: the downloads in a browser over
/// the same JSON-RPC and WebSocket as any front end, the secret from the address's fragment
/// (which no request carries). Its policy lets the page load nothing but these three files and
/// talk to nothing but this daemon, and runs no script but its own: no inline script or
/// handler, no markup made from strings (Trusted Types), no frame of it on another page.
enum WebPageRoutes {
  static let policy = [
    "default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'",
    "img-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
    "require-trusted-types-for 'script'", "trusted-types 'none'",
  ].joined(separator: "; ")

  /// The files, by path: their type and bytes.
  static let files: [String: (type: String, bytes: [UInt8])] = [
    "/": ("text/html; charset=utf-8", PackageResources.index_html),
    "/page.js": ("text/javascript; charset=utf-8", PackageResources.page_js),
    "/page.css": ("text/css; charset=utf-8", PackageResources.page_css),
  ]

  static func add(to router: Router<some RequestContext>) {
    for (path, file) in files {
      router.get(RouterPath(path)) { _, _ in
        Response(
          status: .ok, headers: headers(of: file.type),
          body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
      }
      router.head(RouterPath(path)) { _, _ in
        var headers = headers(of: file.type)
        headers[.contentLength] = String(file.bytes.count)
        return Response(status: .ok, headers: headers)
      }
    }
  }

  /// The headers of a file of `type`: the policy, and no sniffing, referrer or framing.
  private static func headers(of type: String) -> HTTPFields {
    var headers: HTTPFields = [
      .contentType: type, .contentSecurityPolicy: policy, .cacheControl: "no-cache",
    ]
    headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
    headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
    headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
    return headers
  }
}
