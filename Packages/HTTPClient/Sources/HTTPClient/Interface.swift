import Foundation

/// The one way to HTTP: streams a request's answer to a receiver, head first, then the body in
/// pieces, so that no body has to be held in memory. The live configuration is in
/// `HTTPClientLive`.
public struct HTTPClient: Sendable {
  /// Sends `request` and returns once the body is complete or the receiver stopped it.
  /// Throws `HTTPError` when the exchange fails, and `CancellationError` when the task is
  /// cancelled (at once, without waiting for the network).
  public var stream: @Sendable (HTTPRequest, HTTPReceiver) async throws -> Void

  public init(stream: @escaping @Sendable (HTTPRequest, HTTPReceiver) async throws -> Void) {
    self.stream = stream
  }
}

/// What to send. The URL goes out exactly as given: its percent-encoding is kept, and nothing
/// in it can add a header or a request.
public struct HTTPRequest: Sendable, Equatable {
  public var method: String
  public var url: URL
  public var headers: HTTPHeaders
  /// Ask for the bytes from this offset on (`Range: bytes=N-`).
  public var rangeStart: Int64?
  /// With `rangeStart`, the last byte wanted (`Range: bytes=N-M`).
  public var rangeEnd: Int64?
  /// Send the range only while the resource still has this `ETag` or `Last-Modified`
  /// (`If-Range`).
  public var ifRange: String?
  /// The longest time without any data (connecting included) before the request fails.
  public var idleTimeout: Duration
  /// Receive no faster than this, on average, with the other requests that share it (curl's
  /// `--limit-rate`); nil for no limit.
  public var rateLimit: RateLimit?
  /// The longest the whole exchange may take, redirects included (curl's `--max-time`); nil
  /// for no limit.
  public var timeLimit: Duration?
  /// Fail when the transfer is slower than this for as long as it says (curl's
  /// `--speed-limit` and `--speed-time`); nil for no such limit.
  public var minimumSpeed: MinimumSpeed?
  /// Ask for any content coding the client can decode, and receive the body decoded (curl's
  /// `--compressed`): `Content-Length` is then the length of the coded body, not of the
  /// bytes received. A request for a range never asks for one.
  public var acceptsCompression = false
  /// The body to send (a `POST`'s), nil for none.
  public var body: Data?

  public init(
    method: String = "GET", url: URL, headers: HTTPHeaders = [:], rangeStart: Int64? = nil,
    ifRange: String? = nil, idleTimeout: Duration = .seconds(30)
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.rangeStart = rangeStart
    self.ifRange = ifRange
    self.idleTimeout = idleTimeout
  }

  /// The headers as sent: `headers`, then `Range` and `If-Range` (and, for a request that
  /// would accept compression, `Accept-Encoding: identity`).
  public var headersToSend: HTTPHeaders {
    var all = headers
    if let rangeStart {
      all["Range"] = "bytes=\(rangeStart)-\(rangeEnd.map(String.init) ?? "")"
      if let ifRange { all["If-Range"] = ifRange }
      if acceptsCompression, all["Accept-Encoding"] == nil { all["Accept-Encoding"] = "identity" }
    }
    return all
  }

  /// The value of the header `name` as sent, whatever its case.
  public func header(_ name: String) -> String? { headersToSend[name] }
}

/// The slowest a transfer may be, measured over a span of time.
public struct MinimumSpeed: Sendable, Equatable {
  public var bytesPerSecond: Int
  public var seconds: Int

  public init(bytesPerSecond: Int, seconds: Int) {
    self.bytesPerSecond = bytesPerSecond
    self.seconds = seconds
  }
}

/// The head of the final response, after any redirects.
public struct HTTPResponseHead: Sendable, Equatable {
  public var status: Int
  public var headers: HTTPHeaders
  /// `HTTP/1.1`, `HTTP/2`, …
  public var version: String
  /// The URL that answered, after redirects.
  public var url: URL

  public init(status: Int, headers: HTTPHeaders = [:], version: String = "HTTP/1.1", url: URL) {
    self.status = status
    self.headers = headers
    self.version = version
    self.url = url
  }

  /// The body's length from `Content-Length`, when it is given as one non-negative number.
  public var contentLength: Int64? {
    headers["Content-Length"].flatMap { Int64($0.trimmingWhitespace) }
      .flatMap { $0 >= 0 ? $0 : nil }
  }
}

/// What a transfer does with an answer.
public struct HTTPReceiver: Sendable {
  /// Gets the response head before any body; false stops the transfer.
  public var head: @Sendable (HTTPResponseHead) async -> Bool
  /// Gets each piece of the body, in order; false stops the transfer.
  public var body: @Sendable (Data) -> Bool

  public init(
    head: @escaping @Sendable (HTTPResponseHead) async -> Bool,
    body: @escaping @Sendable (Data) -> Bool
  ) {
    self.head = head
    self.body = body
  }
}
