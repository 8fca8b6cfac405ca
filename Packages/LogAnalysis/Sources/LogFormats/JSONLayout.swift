/// One JSON object per line, read without building any object: the keys that `JSONKeys`
/// names are found at the top level and their values taken as bytes; a string with escapes is
/// decoded into a `ByteArena` (JSON's escapes, and nginx's `\xHH` of its default escaping).
package struct JSONLayout: Sendable, Equatable {
  /// Each field's key, whole, and as the path of keys its dots make; the alternative time's
  /// and client's fill their field only when the first one does not.
  private let keys:
    [(whole: [UInt8], path: [[UInt8]], field: ApacheLayout.Field, isAlternative: Bool)]
  package let names: JSONKeys

  package init(_ names: JSONKeys) {
    self.names = names
    var named: [(String, ApacheLayout.Field, Bool)] = [
      (names.client, .address, false), (names.alternativeClient, .host, true),
      (names.request, .request, false), (names.path, .path, false),
      (names.method, .method, false), (names.status, .status, false),
      (names.time, .time, false), (names.userAgent, .userAgent, false),
      (names.referer, .referer, false), (names.size, .size, false),
    ]
    if names.alternativeTime != names.time { named.append((names.alternativeTime, .time, true)) }
    keys = named.filter { !$0.0.isEmpty }.map { key, field, isAlternative in
      (
        Array(key.utf8), key.split(separator: ".").map { Array($0.utf8) }, field,
        isAlternative
      )
    }
  }

  package static func == (a: JSONLayout, b: JSONLayout) -> Bool { a.names == b.names }

  /// Reads the fields of the object on `line` into `record`; false when the line is not a
  /// JSON object.
  package func parse(_ line: UnsafeRawBufferPointer, into record: inout LogRecord, arena: ByteArena)
    -> Bool
  {
    var reader = JSONReader(bytes: line)
    reader.skipSpace()
    return readObject(&reader, depth: 0, keys: keys.indices, into: &record, arena: arena)
  }

  /// Reads the object at `reader` (at `depth` in the line), whose keys of interest are
  /// `keys` (those whose path leads there); false when it is not a JSON object.
  private func readObject(
    _ reader: inout JSONReader, depth: Int, keys wanted: some Collection<Int>,
    into record: inout LogRecord, arena: ByteArena
  ) -> Bool {
    guard reader.take(UInt8(ascii: "{")) else { return false }
    reader.skipSpace()
    if reader.take(UInt8(ascii: "}")) { return true }
    while true {
      reader.skipSpace()
      guard let key = reader.string(), !key.escaped else { return false }
      reader.skipSpace()
      guard reader.take(UInt8(ascii: ":")) else { return false }
      reader.skipSpace()
      // A key that names a field here (whole at the top, or the last of its path), or that
      // leads to fields inside the object it holds.
      let leaf = wanted.first { index in
        let entry = keys[index]
        return depth == 0 && entry.whole.elementsEqual(key.bytes)
          || entry.path.count == depth + 1 && entry.path[depth].elementsEqual(key.bytes)
      }
      if let leaf,
        read(
          &reader, as: keys[leaf].field, alternative: keys[leaf].isAlternative,
          into: &record, arena: arena)
      {
        // Read.
      } else if reader.peek == UInt8(ascii: "{"),
        case let inside = wanted.filter({ index in
          keys[index].path.count > depth + 1 && keys[index].path[depth].elementsEqual(key.bytes)
        }), !inside.isEmpty
      {
        guard readObject(&reader, depth: depth + 1, keys: inside, into: &record, arena: arena)
        else { return false }
      } else {
        guard reader.skipValue() else { return false }
      }
      reader.skipSpace()
      if reader.take(UInt8(ascii: "}")) { return true }
      guard reader.take(UInt8(ascii: ",")) else { return false }
    }
  }

  /// Reads the value at `reader` as `field`: a string, an array's first string (Caddy's
  /// headers), or a number for the status, the time and the size; false, reading nothing,
  /// for any other value. An `alternative` time (the alternative client is the host) does not
  /// replace the first one.
  private func read(
    _ reader: inout JSONReader, as field: ApacheLayout.Field, alternative: Bool,
    into record: inout LogRecord, arena: ByteArena
  ) -> Bool {
    var probe = reader
    if probe.take(UInt8(ascii: "[")) {
      probe.skipSpace()
      guard probe.peek == UInt8(ascii: "\""), let value = probe.string() else { return false }
      // The first string names it; the rest of the array is passed over.
      guard reader.skipValue() else { return false }
      set(field, value, alternative: alternative, into: &record, arena: arena)
      return true
    }
    if reader.peek == UInt8(ascii: "\"") {
      guard let value = reader.string() else { return false }
      set(field, value, alternative: alternative, into: &record, arena: arena)
      return true
    }
    if field == .status || field == .time || field == .size, let number = reader.number() {
      if !(alternative && field == .time && record.time != nil) { record.set(field, number) }
      return true
    }
    return false
  }

  private func set(
    _ field: ApacheLayout.Field, _ value: (bytes: UnsafeRawBufferPointer, escaped: Bool),
    alternative: Bool, into record: inout LogRecord, arena: ByteArena
  ) {
    guard !(alternative && field == .time && record.time != nil) else { return }
    // nginx writes `-` for a variable without a value: a client of `-` is none.
    if field == .address || field == .host, value.bytes.count == 1,
      value.bytes[0] == UInt8(ascii: "-")
    {
      return
    }
    record.set(field, value.escaped ? JSONReader.decode(value.bytes, into: arena) : value.bytes)
  }
}

/// A reading position in the bytes of a JSON line.
private struct JSONReader {
  package let bytes: UnsafeRawBufferPointer
  package var index = 0

  package var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

  package mutating func take(_ byte: UInt8) -> Bool {
    guard peek == byte else { return false }
    index += 1
    return true
  }

  package mutating func skipSpace() {
    while let byte = peek,
      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    {
      index += 1
    }
  }

  /// A string's bytes between its quotes, still escaped, and whether it has escapes.
  package mutating func string() -> (bytes: UnsafeRawBufferPointer, escaped: Bool)? {
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
  package mutating func number() -> UnsafeRawBufferPointer? {
    let start = index
    while let byte = peek, LogTime.isDigit(byte) || Self.isNumberMark(byte) { index += 1 }
    return index > start ? UnsafeRawBufferPointer(rebasing: bytes[start..<index]) : nil
  }

  /// Whether `byte` is a number's sign, point or exponent. A `switch`, not a search of a
  /// string's bytes, which was 3% of a JSON log's samples (once for every number's end).
  private static func isNumberMark(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"),
      UInt8(ascii: "E"):
      true
    default: false
    }
  }

  /// Passes over any value: a string, a number, a literal, or an object or array with what
  /// it holds.
  package mutating func skipValue() -> Bool {
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
  package static func decode(_ escaped: UnsafeRawBufferPointer, into arena: ByteArena)
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
