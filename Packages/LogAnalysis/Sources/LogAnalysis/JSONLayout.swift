/// One JSON object per line, read without building any object: the keys that `JSONKeys`
/// names are found at the top level and their values taken as bytes; a string with escapes is
/// decoded into a `ByteArena` (JSON's escapes, and nginx's `\xHH` of its default escaping).
struct JSONLayout: Sendable, Equatable {
  private let keys: [(bytes: [UInt8], field: ApacheLayout.Field)]
  let names: JSONKeys

  init(_ names: JSONKeys) {
    self.names = names
    var keys: [(bytes: [UInt8], field: ApacheLayout.Field)] = [
      (Array(names.client.utf8), .address), (Array(names.request.utf8), .request),
      (Array(names.path.utf8), .path), (Array(names.method.utf8), .method),
      (Array(names.status.utf8), .status), (Array(names.time.utf8), .time),
      (Array(names.userAgent.utf8), .userAgent), (Array(names.referer.utf8), .referer),
      (Array(names.size.utf8), .size),
    ]
    if names.alternativeTime != names.time {
      keys.append((Array(names.alternativeTime.utf8), .time))
    }
    self.keys = keys
  }

  static func == (a: JSONLayout, b: JSONLayout) -> Bool { a.names == b.names }

  /// Reads the fields of the object on `line` into `record`; false when the line is not a
  /// JSON object.
  func parse(_ line: UnsafeRawBufferPointer, into record: inout LogRecord, arena: ByteArena)
    -> Bool
  {
    var reader = JSONReader(bytes: line)
    reader.skipSpace()
    guard reader.take(UInt8(ascii: "{")) else { return false }
    reader.skipSpace()
    if reader.take(UInt8(ascii: "}")) { return true }
    while true {
      reader.skipSpace()
      guard let key = reader.string(), !key.escaped else { return false }
      reader.skipSpace()
      guard reader.take(UInt8(ascii: ":")) else { return false }
      reader.skipSpace()
      let field = keys.first { $0.bytes.elementsEqual(key.bytes) }?.field
      if let field, reader.peek == UInt8(ascii: "\"") {
        guard let value = reader.string() else { return false }
        // The first time key wins over the alternative.
        if field != .time || record.time == nil {
          record.set(
            field, value.escaped ? JSONReader.decode(value.bytes, into: arena) : value.bytes)
        }
      } else if let field, field == .status || field == .time || field == .size,
        let number = reader.number()
      {
        record.set(field, number)
      } else {
        guard reader.skipValue() else { return false }
      }
      reader.skipSpace()
      if reader.take(UInt8(ascii: "}")) { return true }
      guard reader.take(UInt8(ascii: ",")) else { return false }
    }
  }
}

/// A reading position in the bytes of a JSON line.
private struct JSONReader {
  let bytes: UnsafeRawBufferPointer
  var index = 0

  var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

  mutating func take(_ byte: UInt8) -> Bool {
    guard peek == byte else { return false }
    index += 1
    return true
  }

  mutating func skipSpace() {
    while let byte = peek,
      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    {
      index += 1
    }
  }

  /// A string's bytes between its quotes, still escaped, and whether it has escapes.
  mutating func string() -> (bytes: UnsafeRawBufferPointer, escaped: Bool)? {
    guard take(UInt8(ascii: "\"")) else { return nil }
    let scanner = ByteScanner(bytes: bytes)
    let start = index
    var escaped = false
    while true {
      let found = scanner.first(
        UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "\\"), from: index)
      guard found < bytes.count else { return nil }
      if bytes[found] == UInt8(ascii: "\"") {
        index = found + 1
        return (UnsafeRawBufferPointer(rebasing: bytes[start..<found]), escaped)
      }
      escaped = true
      index = found + 2
    }
  }

  /// A number's bytes.
  mutating func number() -> UnsafeRawBufferPointer? {
    let start = index
    while let byte = peek, LogTime.isDigit(byte) || "+-.eE".utf8.contains(byte) { index += 1 }
    return index > start ? UnsafeRawBufferPointer(rebasing: bytes[start..<index]) : nil
  }

  /// Passes over any value: a string, a number, a literal, or an object or array with what
  /// it holds.
  mutating func skipValue() -> Bool {
    var depth = 0
    repeat {
      skipSpace()
      guard let byte = peek else { return false }
      switch byte {
      case UInt8(ascii: "\""):
        guard string() != nil else { return false }
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        index += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        guard depth > 0 else { return false }
        depth -= 1
        index += 1
      case UInt8(ascii: ","), UInt8(ascii: ":"):
        guard depth > 0 else { return false }
        index += 1
      default:
        let start = index
        while let byte = peek, !",:}] \t\r\"{[".utf8.contains(byte) { index += 1 }
        guard index > start else { return false }
      }
    } while depth > 0
    return true
  }

  /// The bytes of a JSON string with its escapes decoded; a `\u` escape that is not valid
  /// UTF-16 gives U+FFFD.
  static func decode(_ escaped: UnsafeRawBufferPointer, into arena: ByteArena)
    -> UnsafeRawBufferPointer
  {
    // Decoded text is never longer than its escaped form.
    let room = arena.allocate(escaped.count)
    var out = 0
    var index = 0
    func put(_ byte: UInt8) {
      room[out] = byte
      out += 1
    }
    func hex(_ start: Int, _ count: Int) -> UInt32? {
      guard start + count <= escaped.count else { return nil }
      var value: UInt32 = 0
      for byte in escaped[start..<start + count] {
        guard let digit = Int(String(UnicodeScalar(byte)), radix: 16) else { return nil }
        value = value << 4 | UInt32(digit)
      }
      return value
    }
    while index < escaped.count {
      let byte = escaped[index]
      guard byte == UInt8(ascii: "\\"), index + 1 < escaped.count else {
        put(byte)
        index += 1
        continue
      }
      let kind = escaped[index + 1]
      index += 2
      switch kind {
      case UInt8(ascii: "b"): put(0x08)
      case UInt8(ascii: "f"): put(0x0c)
      case UInt8(ascii: "n"): put(0x0a)
      case UInt8(ascii: "r"): put(0x0d)
      case UInt8(ascii: "t"): put(0x09)
      case UInt8(ascii: "x"):
        if let value = hex(index, 2) {
          put(UInt8(value))
          index += 2
        } else {
          put(kind)
        }
      case UInt8(ascii: "u"):
        var scalar = hex(index, 4).flatMap(Unicode.Scalar.init)
        var used = 4
        if let high = hex(index, 4), (0xD800...0xDBFF).contains(high),
          index + 6 <= escaped.count, escaped[index + 4] == UInt8(ascii: "\\"),
          escaped[index + 5] == UInt8(ascii: "u"), let low = hex(index + 6, 4),
          (0xDC00...0xDFFF).contains(low)
        {
          scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
          used = 10
        }
        guard hex(index, 4) != nil else {
          put(kind)
          continue
        }
        for unit in String(scalar ?? "\u{FFFD}").utf8 { put(unit) }
        index += used
      default: put(kind)  // \" \\ \/ and anything else: the character itself
      }
    }
    return UnsafeRawBufferPointer(rebasing: room[0..<out])
  }
}
