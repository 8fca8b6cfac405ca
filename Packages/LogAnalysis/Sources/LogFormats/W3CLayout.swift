/// The fields of a W3C extended log (IIS, CloudFront), in the order its `#Fields:` header
/// names them. Values are separated by spaces (IIS; a run of them is one separator, as some
/// writers pad) or a tab (CloudFront); `-` is no value, and a line with `-` for its status,
/// date or time is malformed; a value in double quotes (the W3C draft's strings, as IIS
/// Advanced Logging writes a cookie or a user agent with spaces) is one value, `""` inside it
/// standing for a quote.
package struct W3CLayout: Sendable, Equatable {
  package enum Field: Sendable, Equatable {
    case clientIP, stem, query, method, status, userAgent, referer, bytes, date, time, other
  }

  package let fields: [Field]
  /// Whether the header names a time of day but no date (IIS can leave the date to the
  /// `#Date:` directive): no time that reads.
  package let lacksDate: Bool

  private static let prefix = Array("#Fields:".utf8)

  /// Reads a `#Fields:` line; nil for any other line.
  package init?(header line: UnsafeRawBufferPointer) {
    guard Self.isHeader(line) else { return nil }
    let names = String(
      decoding: UnsafeRawBufferPointer(rebasing: line[Self.prefix.count...]), as: UTF8.self)
    fields = names.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map {
      switch $0.lowercased() {
      case "c-ip": .clientIP
      // Incapsula's and Oracle Web Cache's cs-uri holds the path and the query.
      case "cs-uri-stem", "cs-uri": .stem
      case "cs-uri-query": .query
      case "cs-method": .method
      case "sc-status": .status
      // CloudFront's RTMP distributions write c-user-agent and c-referrer.
      case "cs(user-agent)", "c-user-agent": .userAgent
      case "cs(referer)", "cs(referrer)", "c-referrer": .referer
      case "sc-bytes": .bytes
      // IIS Advanced Logging's local date and time.
      case "date", "date-local": .date
      case "time", "time-local": .time
      default: .other
      }
    }
    lacksDate = fields.contains(.time) && !fields.contains(.date)
  }

  package static func isHeader(_ line: UnsafeRawBufferPointer) -> Bool {
    line.starts(with: prefix)
  }

  package var hasTime: Bool { fields.contains(.date) && fields.contains(.time) }
  package var hasUserAgent: Bool { fields.contains(.userAgent) }
  package var hasStatus: Bool { fields.contains(.status) }
  package var isUsable: Bool { fields.contains(.clientIP) && fields.contains(.stem) }

  /// Reads the fields of `line` into `record`; false when it has fewer values than fields.
  package func parse(_ line: UnsafeRawBufferPointer, into record: inout LogRecord) -> Bool {
    let scanner = ByteScanner(bytes: line)
    let quote = UInt8(ascii: "\"")
    var start = 0
    for (index, field) in fields.enumerated() {
      guard start <= line.count else { return false }
      let value: UnsafeRawBufferPointer
      let end: Int
      if start < line.count && line[start] == quote {
        var close = start + 1
        while close < line.count
          && (line[close] != quote || (close + 1 < line.count && line[close + 1] == quote))
        {
          close += line[close] == quote ? 2 : 1
        }
        guard close < line.count else { return false }
        value = UnsafeRawBufferPointer(rebasing: line[(start + 1)..<close])
        end = close + 1
        guard end == line.count || line[end] == UInt8(ascii: " ") || line[end] == UInt8(ascii: "\t")
        else { return false }
      } else {
        end = scanner.first(
          UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\t"), from: start)
        value = UnsafeRawBufferPointer(rebasing: line[start..<end])
      }
      if index < fields.count - 1 && end >= line.count { return false }
      start = end + 1
      if end < line.count && line[end] == UInt8(ascii: " ") {
        while start < line.count && line[start] == UInt8(ascii: " ") { start += 1 }
      }
      guard !(value.count == 1 && value[0] == UInt8(ascii: "-")) else {
        if field == .status || field == .date || field == .time { return false }
        continue
      }
      switch field {
      case .clientIP: record.address = value
      case .stem: record.path = value
      case .query: record.query = value
      case .method: record.method = value
      case .status: record.status = value
      case .userAgent: record.userAgent = value
      case .referer: record.referer = value
      case .bytes: record.size = value
      case .date: record.date = value
      case .time: if !lacksDate { record.time = value }
      case .other: break
      }
    }
    return true
  }
}
