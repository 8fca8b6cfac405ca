/// The fields of one log line that the analysis reads, as bytes of the line (or of a
/// `ByteArena`, when a value had to be decoded). Absent fields are nil.
package struct LogRecord {
  package init() {}

  package var host: UnsafeRawBufferPointer?
  package var address: UnsafeRawBufferPointer?
  /// The request line, `GET /page?query HTTP/1.1`.
  package var request: UnsafeRawBufferPointer?
  package var method: UnsafeRawBufferPointer?
  /// The page without its query, when there is no request line.
  package var path: UnsafeRawBufferPointer?
  /// The query, with or without its `?`.
  package var query: UnsafeRawBufferPointer?
  package var status: UnsafeRawBufferPointer?
  /// The time, or with `date`, the time of day (W3C).
  package var time: UnsafeRawBufferPointer?
  package var date: UnsafeRawBufferPointer?
  package var userAgent: UnsafeRawBufferPointer?
  /// The bytes sent, `-` or digits.
  package var size: UnsafeRawBufferPointer?
  package var referer: UnsafeRawBufferPointer?
  /// The time read by its strftime pattern (`%{%d.%m.%Y %H:%M:%S}t`): seconds since 1970 and
  /// the offset east of UTC.
  package var patternTime: (seconds: Int64, offset: Int64)?

  /// The client: the address when there is one, otherwise the host.
  package var client: UnsafeRawBufferPointer? { address ?? host }

  package mutating func set(_ field: ApacheLayout.Field, _ value: UnsafeRawBufferPointer) {
    switch field {
    case .host: host = value
    case .address: address = value
    case .time, .formattedTime, .patternTime: time = value
    case .request: request = value
    case .status: status = value
    case .method: method = value
    case .path: path = value
    case .query: query = value
    case .userAgent: userAgent = value
    case .size: size = value
    case .referer: referer = value
    case .other: break
    }
  }

  /// Whether the status, when there is one, is three digits, and the time, when there is one,
  /// reads.
  package var fieldsHoldTheirValues: Bool {
    if let status, status.count != 3 || !status.allSatisfy(LineParser.isDigit) { return false }
    return time == nil || seconds != nil
  }

  /// The seconds since 1970 of the visit, or nil when the line has no time that reads.
  package var seconds: Int64? {
    if let patternTime { return patternTime.seconds }
    guard let time else { return nil }
    if let date { return LogTime.seconds(date: date, time: time) }
    return LogTime.seconds(time)
  }

  /// The time as the line wrote it, in its zone (see `LogTime.localSeconds`).
  package var localSeconds: Int64? {
    if let patternTime { return patternTime.seconds + patternTime.offset }
    guard let time else { return nil }
    if let date { return LogTime.seconds(date: date, time: time) }
    return LogTime.localSeconds(time)
  }

  /// The bytes sent: 0 for `-`, none, or a value that is not a number.
  package var sizeValue: Int { size.map(SizeField.value) ?? 0 }

  /// The status code, or nil when there is none (`-`) or it is not a number.
  package var statusCode: Int? {
    guard let status, (1...3).contains(status.count) else { return nil }
    var code = 0
    for byte in status {
      guard LogTime.isDigit(byte) else { return nil }
      code = code * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return code
  }
}
