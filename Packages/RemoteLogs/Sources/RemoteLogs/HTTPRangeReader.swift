import Foundation
import HTTPClient
import LogAnalysisLive
import Synchronization

/// A log on an http(s) server read by Range requests (`analyze URL --byte-range`), so that a
/// split reads its own bytes only: an object on S3, GCS or Azure by a presigned or public URL,
/// a file behind nginx; or, for a WebHDFS URL (`…/webhdfs/v1/PATH?op=OPEN`), by its own
/// `offset` and `length` parameters. Its reads block: make them from a thread of their own
/// (`onOwnThread`), never from one of the pool.
public enum HTTPRangeReader {
  /// The reader of the log at `url`, whose size the server says in answer to a Range request
  /// for its first byte (WebHDFS: to `op=GETFILESTATUS`). Throws `HTTPError`, or a
  /// `LogInputError` for a server that answers no Range request. A server that names no
  /// version of the log is said to `warn`: then only a change of the log's size is noticed.
  public static func open(
    _ url: URL, http: HTTPClient, headers: HTTPHeaders, warn: (String) -> Void
  ) async throws -> RangeReader {
    if let file = WebHDFSFile(url) { return try await file.open(http: http, headers: headers) }
    let name = url.redactingPassword.absoluteString
    let (head, _) = try await http.data(for: request(url, headers, 0..<1))
    let size: Int
    switch head.status {
    case 206:
      guard let total = head.contentRange?.size else {
        throw LogInputError("\(name): the server's Content-Range names no size")
      }
      size = try checked(total, of: name)
    case 416: size = 0  // an empty log: no byte to give
    case 200:
      throw LogInputError(
        "\(name): the server answers no Range request (HTTP 200): --byte-range needs one")
    default: throw LogInputError("\(name): the server answered HTTP \(head.status)")
    }
    // Every later read asks for the bytes of this version of the log only (If-Range): a log
    // rewritten between two reads is an error, not a split of two files. A weak ETag cannot
    // be asked for (RFC 9110), a date can.
    let etag = head.headers["ETag"].flatMap { $0.hasPrefix("W/") ? nil : $0 }
    let version = etag ?? head.headers["Last-Modified"]
    if version == nil {
      warn(
        "\(name): the server names no version of the log (no ETag or Last-Modified): only a "
          + "change of its size between two reads is noticed")
    }
    return RangeReader(size: size) { range in
      try blocking {
        var request = request(url, headers, range)
        request.ifRange = version
        let (head, body) = try await http.data(for: request)
        if head.status == 200, let version {
          throw LogInputError(
            "\(name): the log changed while it was read (it is no longer \(version))")
        }
        if let now = head.contentRange?.size, now != Int64(size) {
          throw LogInputError(
            "\(name): the log changed while it was read (\(size) bytes, now \(now))")
        }
        guard head.status == 206, head.contentRange?.start == Int64(range.lowerBound),
          body.count == range.count
        else { throw unexpected(name, range, head, body) }
        return body
      }
    }
  }

  /// The largest size a server may give for a log: 2^53 bytes (8 PiB), so that offsets into
  /// it never overflow.
  static let largestSize: Int64 = 1 << 53

  /// `size`, a server's word for a log's length, as a length: an error for a negative one or
  /// one past `largestSize`.
  static func checked(_ size: Int64, of name: String) throws -> Int {
    guard (0...largestSize).contains(size) else {
      throw LogInputError("\(name): the server gives the log an impossible size, \(size) bytes")
    }
    return Int(size)
  }

  /// Why the answer to a read of `range` is not its bytes.
  static func unexpected(
    _ name: String, _ range: Range<Int>, _ head: HTTPResponseHead, _ body: Data
  ) -> LogInputError {
    LogInputError(
      "\(name): bytes \(range.lowerBound)-\(range.upperBound - 1) came back as HTTP "
        + "\(head.status) with \(body.count) bytes")
  }

  /// The result of `fetch`, waited for on this (a thread of its own).
  static func blocking(_ fetch: @escaping @Sendable () async throws -> Data) throws -> Data {
    let answer = Mutex<Result<Data, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
      do {
        let body = try await fetch()
        answer.withLock { $0 = .success(body) }
      } catch {
        answer.withLock { $0 = .failure(error) }
      }
      done.signal()
    }
    done.wait()
    return try answer.withLock { $0! }.get()
  }

  /// A GET of `range` of the log.
  private static func request(_ url: URL, _ headers: HTTPHeaders, _ range: Range<Int>)
    -> HTTPRequest
  {
    var request = HTTPRequest(url: url, headers: headers, rangeStart: Int64(range.lowerBound))
    request.rangeEnd = Int64(range.upperBound - 1)
    return request
  }
}

extension HTTPRangeReader {
  /// `body` on a thread of its own, so that it may block on async work (a reader's reads)
  /// without holding a thread of the pool.
  public static func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T)
    async throws -> T
  {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try body() }) }.start()
    }
  }
}
