import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The parts of HTTP responses that downloads depend on.
enum HTTPHeaders {
  /// A `Content-Range: bytes start-end/total` header.
  struct ContentRange: Equatable {
    var start: Int64
    var end: Int64
    var total: Int64?
  }

  static func contentRange(_ header: String?) -> ContentRange? {
    guard let header, header.lowercased().hasPrefix("bytes ") else { return nil }
    let spec = header.dropFirst(6).split(separator: "/", maxSplits: 1)
    guard spec.count == 2 else { return nil }
    let bounds = spec[0].split(separator: "-", maxSplits: 1)
    guard bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]),
      start <= end
    else { return nil }
    return ContentRange(start: start, end: end, total: Int64(spec[1]))
  }

  /// A `Retry-After` header: delay seconds, or an HTTP date measured against `now`.
  static func retryAfter(_ header: String?, now: Date = Date()) -> Duration? {
    guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else {
      return nil
    }
    if let seconds = Int(header) { return .seconds(max(0, seconds)) }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: header) else { return nil }
    return .seconds(max(0, Int(date.timeIntervalSince(now).rounded(.up))))
  }
}

extension HTTPURLResponse {
  func header(_ name: String) -> String? {
    value(forHTTPHeaderField: name)
  }
}
