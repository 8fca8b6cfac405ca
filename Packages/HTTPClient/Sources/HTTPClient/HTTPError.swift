/// Why an HTTP exchange failed, and whether another attempt may help.
public enum HTTPError: Error, Sendable, Equatable {
  /// Not a URL that can be requested.
  case invalidURL(String)
  /// A scheme other than http and https, given or redirected to; nothing was opened for it.
  case unsupportedScheme(String)
  case nameLookup(host: String)
  case proxy(String)
  case connect(String)
  /// The server's certificate is not trusted or does not match: a retry cannot help.
  case tlsCertificate(String)
  /// The TLS handshake failed for another reason.
  case tls(String)
  case tooManyRedirects(limit: Int)
  case idleTimeout(seconds: Int)
  /// The transfer was slower than its `MinimumSpeed` for as long as that allows.
  case tooSlow(MinimumSpeed)
  /// The exchange took longer in all than its time limit.
  case timeLimit(seconds: Int)
  /// The connection ended or broke before the answer was complete.
  case connectionLost(String)
  /// The answer is not valid HTTP (a negative `Content-Length`, broken chunking, …).
  case malformedResponse(String)
  /// The server answered with a status the caller does not accept.
  case status(Int, url: String, bodyExcerpt: String)
  /// A test double's endpoint that no test expected to be called (see `Unimplemented`):
  /// nothing was sent, and another attempt cannot help.
  case unimplemented(String)
  case other(String)

  /// Whether another attempt may succeed: not for a certificate, a refused scheme, too many
  /// redirects, a malformed answer, an unimplemented test double, or a 4xx other than 408
  /// and 429.
  public var isRetryable: Bool {
    switch self {
    case .invalidURL, .unsupportedScheme, .tlsCertificate, .tooManyRedirects,
      .malformedResponse, .timeLimit, .unimplemented:
      return false
    case .status(let status, _, _):
      return Self.isRetryable(status: status)
    case .nameLookup, .proxy, .connect, .tls, .idleTimeout, .tooSlow, .connectionLost, .other:
      return true
    }
  }

  /// Whether another attempt may get a better answer than `status`: a timeout (408), too
  /// many requests (429) or a server error (5xx). The one rule of the repository's clients.
  public static func isRetryable(status: Int) -> Bool {
    status == 408 || status == 429 || status >= 500
  }

  /// Whether the failure happened on the way, which may mean the host is gone (as opposed
  /// to an answer the host gave).
  public var isTransport: Bool {
    switch self {
    case .nameLookup, .connect, .idleTimeout, .tooSlow, .connectionLost, .other: return true
    default: return false
    }
  }
}

extension HTTPError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .invalidURL(let url): return "not a valid URL: \(url)"
    case .unsupportedScheme(let reason): return "refused: \(reason) (only http and https)"
    case .nameLookup(let host): return "cannot find host \(host)"
    case .proxy(let reason): return "proxy: \(reason)"
    case .connect(let reason): return reason
    case .tlsCertificate(let reason): return "TLS certificate not trusted: \(reason)"
    case .tls(let reason): return "TLS: \(reason)"
    case .tooManyRedirects(let limit): return "too many redirects (more than \(limit))"
    case .idleTimeout(let seconds): return "no data for \(seconds) s"
    case .tooSlow(let speed):
      return "slower than \(speed.bytesPerSecond) bytes/s for \(speed.seconds) s"
    case .timeLimit(let seconds): return "no complete answer within \(seconds) s"
    case .connectionLost(let reason): return "connection lost: \(reason)"
    case .malformedResponse(let reason): return "malformed response: \(reason)"
    case .status(let status, let url, let excerpt):
      return "\(url) answered HTTP \(status)" + (excerpt.isEmpty ? "" : ": \(excerpt)")
    case .unimplemented(let reason): return reason
    case .other(let reason): return reason
    }
  }
}
