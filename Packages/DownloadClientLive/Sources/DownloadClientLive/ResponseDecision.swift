import DownloadClient
import Foundation
import HTTPClient

/// What to do with a response head, given the bytes already on disk.
enum ResponseDecision: Equatable {
  /// Write the body from this byte of the file on; `total` is the file's size when known.
  case write(from: Int64, total: Int64?)
  /// The answer does not continue the bytes on disk: start again from zero.
  case restart(reason: String)
  case fail(DownloadError, retryAfter: Duration?)
  /// The answer to a conditional request: the file on disk is still the server's (304).
  case unchanged

  /// The decision for `head`, when `offset` bytes are on disk and were asked for with a
  /// range: only a 206 whose `Content-Range` starts at `offset` continues them, and another
  /// 2xx restarts the file from zero. After a `conditional` request, a 304 means unchanged.
  static func decide(
    _ head: HTTPResponseHead, offset: Int64, accepting accepted: Range<Int>, maxSize: Int64?,
    conditional: Bool = false, now: Date = Date()
  ) -> ResponseDecision {
    if conditional && head.status == 304 { return .unchanged }
    guard accepted.contains(head.status) else {
      return .fail(
        .httpStatus(head.status), retryAfter: retryAfter(head.headers["Retry-After"], now: now))
    }
    var start: Int64 = 0
    // The length of a coded body is not the size of the decoded file.
    var total = isCoded(head) ? nil : head.contentLength
    if head.status == 206 {
      guard let range = head.contentRange, range.start == offset else {
        return .restart(
          reason:
            "Content-Range \(head.headers["Content-Range"] ?? "none") does not start at \(offset)"
        )
      }
      start = offset
      total = range.size
    }
    if let maxSize, let total, total > maxSize {
      return .fail(.tooLarge(limit: maxSize), retryAfter: nil)
    }
    return .write(from: start, total: total)
  }

  /// Whether the body comes in a content coding (gzip, br, …), which the client decodes.
  static func isCoded(_ head: HTTPResponseHead) -> Bool {
    guard let coding = head.headers["Content-Encoding"] else { return false }
    return !["", "identity"].contains(coding.trimmingWhitespace.lowercased())
  }

  /// A `Retry-After` header: delay seconds, or an HTTP date measured against `now`.
  static func retryAfter(_ header: String?, now: Date) -> Duration? {
    guard let header = header?.trimmingWhitespace, !header.isEmpty else {
      return nil
    }
    if let seconds = Int(header) { return .seconds(max(0, seconds)) }
    guard let date = HTTPDate.parse(header) else { return nil }
    return .seconds(max(0, Int(date.timeIntervalSince(now).rounded(.up))))
  }
}
