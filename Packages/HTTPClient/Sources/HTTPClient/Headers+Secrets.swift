import Foundation

extension HTTPHeaders {
  /// Whether a header of this name carries a secret, never to be stored, shown, or sent to a
  /// server the user did not name: `Authorization`, `Proxy-Authorization`, `Cookie`, and any
  /// name holding one of `auth`, `cookie`, `token`, `key`, `secret`, `session`, `password`,
  /// `passwd`, `signature`, `credential`, `csrf` or `xsrf` (`X-Api-Key`, `X-Auth-Token`, …).
  /// Too many secrets costs a header given again on resume; too few leaks one.
  public static func isSecret(_ name: String) -> Bool {
    let name = name.lowercased()
    return secretWords.contains { name.contains($0) }
  }

  private static let secretWords = [
    "auth", "cookie", "token", "key", "secret", "session", "password", "passwd", "signature",
    "credential", "csrf", "xsrf",
  ]

  /// The fields to send to `url` when the user named `origin`: all of them to the same
  /// origin, and only those that are not secret to any other.
  public func sendable(to url: URL, trusting origin: URL) -> HTTPHeaders {
    url.hasSameOrigin(as: origin) ? self : HTTPHeaders(fields.filter { !Self.isSecret($0.name) })
  }
}

extension URL {
  /// Whether the two URLs have the same scheme, host and port (a default port counting as
  /// given): where credentials given for one may go to the other.
  public func hasSameOrigin(as other: URL) -> Bool {
    func origin(_ url: URL) -> (String, String, Int?) {
      let scheme = url.scheme?.lowercased() ?? ""
      let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
      return (scheme, url.host?.lowercased() ?? "", port)
    }
    return origin(self) == origin(other)
  }
}
