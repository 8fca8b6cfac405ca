import Foundation
import HTTPClient
import LogAnalysisLive
import Synchronization

/// A log on an http(s) server read by Range requests (`analyze URL --byte-range`), so that a
/// split reads its own bytes only: an object on S3, GCS or Azure by a presigned or public URL,
/// a file behind nginx; or, for a WebHDFS URL (`…/webhdfs/v1/PATH?op=OPEN`), by its own
/// `offset` and `length` parameters. Its reads block: they are made from a thread of their own
/// (`onOwnThread`), never from one of the pool.
enum HTTPRangeReader {
  /// The reader of the log at `url`, whose size the server says in answer to a Range request
  /// for its first byte (WebHDFS: to `op=GETFILESTATUS`). Throws `HTTPError`, or a
  /// `LogInputError` for a server that answers no Range request.
  static func open(_ url: URL, http: HTTPClient, headers: HTTPHeaders) async throws -> RangeReader {
    if let file = WebHDFSFile(url) { return try await file.open(http: http, headers: headers) }
    let name = url.redactingPassword.absoluteString
    let (head, _) = try await http.data(for: request(url, headers, 0..<1))
    let size: Int
    switch head.status {
    case 206:
      guard let total = head.contentRange?.size else {
        throw LogInputError("\(name): the server's Content-Range names no size")
      }
      size = Int(total)
    case 416: size = 0  // an empty log: no byte to give
    case 200:
      throw LogInputError(
        "\(name): the server answers no Range request (HTTP 200): --byte-range needs one")
    default: throw LogInputError("\(name): the server answered HTTP \(head.status)")
    }
    return RangeReader(size: size) { range in
      try blocking {
        let (head, body) = try await http.data(for: request(url, headers, range))
        guard head.status == 206, head.contentRange?.start == Int64(range.lowerBound),
          body.count == range.count
        else { throw unexpected(name, range, head, body) }
        return body
      }
    }
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

/// `body` on a thread of its own, so that it may block on async work without holding a
/// thread of the pool.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try body() }) }.start()
  }
}
