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

/// Room for bytes that a line does not hold as they are (decoded JSON strings, a path joined
/// to its query, an address joined to a user agent). Pointers it gives stay valid until
/// `removeAll()`.
package final class ByteArena {
  private var blocks: [UnsafeMutableRawBufferPointer] = []
  private var used = 0
  private static let blockSize = 64 << 10

  package init() {}

  deinit { for block in blocks { block.deallocate() } }

  /// Room for `count` bytes.
  package func allocate(_ count: Int) -> UnsafeMutableRawBufferPointer {
    if blocks.isEmpty || used + count > blocks[blocks.count - 1].count {
      blocks.append(.allocate(byteCount: max(Self.blockSize, count), alignment: 8))
      used = 0
    }
    let block = blocks[blocks.count - 1]
    defer { used += count }
    return UnsafeMutableRawBufferPointer(rebasing: block[used..<used + count])
  }

  /// `parts` one after the other.
  package func joined(_ parts: UnsafeRawBufferPointer...) -> UnsafeRawBufferPointer {
    let room = allocate(parts.reduce(0) { $0 + $1.count })
    var offset = 0
    for part in parts where part.count > 0 {
      UnsafeMutableRawBufferPointer(rebasing: room[offset..<offset + part.count]).copyMemory(
        from: part)
      offset += part.count
    }
    return UnsafeRawBufferPointer(room)
  }

  /// Frees all but the first block.
  package func removeAll() {
    for block in blocks.dropFirst() { block.deallocate() }
    blocks = Array(blocks.prefix(1))
    used = 0
  }
}
