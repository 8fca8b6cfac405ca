import Foundation

/// Byte-level reading of the little XML syntax the pre-passes need: where a piece of markup
/// ends, and what a reference (`&name;`, `&#233;`) names. The document is UTF-8 by then.
enum Markup {
  /// The pieces of markup that end with a string of their own, by how they start.
  private static let closers: [(open: StaticString, close: StaticString)] = [
    ("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>"),
  ]

  /// The offset after the comment, CDATA section, processing instruction, declaration or tag
  /// whose `<` is at `start`, or nil when it is not closed. A declaration or tag ends at the
  /// first `>` from `index` (default: just after `start`) that is outside quotes.
  static func end(of bytes: UnsafeRawBufferPointer, at start: Int, from index: Int? = nil)
    -> Int?
  {
    if index == nil, let (open, close) = closers.first(where: { bytes.has($0.open, at: start) }) {
      return bytes.end(of: close, from: start + open.utf8CodeUnitCount)
    }
    var index = index ?? start + 1
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: ">"): return index + 1
      case let quote where quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'"):
        guard let close = bytes[(index + 1)...].firstIndex(of: quote) else { return nil }
        index = close + 1
      default: index += 1
      }
    }
    return nil
  }

  /// Whether the `<` at `start` opens a start tag.
  static func isTag(_ bytes: UnsafeRawBufferPointer, at start: Int) -> Bool {
    start + 1 < bytes.count && bytes.isNameStart(bytes[start + 1])
  }
}

/// An entity or character reference.
enum Reference {
  private static let predefined: Set<[UInt8]> = Set(
    ["lt", "gt", "amp", "apos", "quot"].map { Array($0.utf8) })

  /// The reference whose `&` is at `start`: the name of the entity it refers to (nil for a
  /// character reference or a predefined entity, which libxml2 reads) and where it ends; nil
  /// when the `&` starts no reference.
  static func read(_ bytes: UnsafeRawBufferPointer, at start: Int) -> (
    name: [UInt8]?, end: Int
  )? {
    if bytes.has("&#", at: start) { return character(bytes, at: start).map { (nil, $0.end) } }
    let nameEnd = bytes.nameEnd(from: start + 1)
    guard nameEnd > start + 1, nameEnd < bytes.count, bytes[nameEnd] == UInt8(ascii: ";") else {
      return nil
    }
    let name = Array(bytes[(start + 1)..<nameEnd])
    return (predefined.contains(name) ? nil : name, nameEnd + 1)
  }

  /// The character of the reference `&#N;` or `&#xH;` at `start`, and where it ends.
  static func character(_ bytes: UnsafeRawBufferPointer, at start: Int) -> (
    scalar: Unicode.Scalar, end: Int
  )? {
    let hex = bytes.has("&#x", at: start)
    let digitsStart = start + (hex ? 3 : 2)
    var index = digitsStart
    while index < bytes.count, index - digitsStart < 8,
      hex ? bytes[index].isHexDigit : bytes[index].isDigit
    {
      index += 1
    }
    guard index > digitsStart, index < bytes.count, bytes[index] == UInt8(ascii: ";"),
      let value = UInt32(
        String(decoding: bytes[digitsStart..<index], as: UTF8.self), radix: hex ? 16 : 10),
      let scalar = Unicode.Scalar(value)
    else { return nil }
    return (scalar, index + 1)
  }
}

extension UnsafeRawBufferPointer {
  /// Whether `text` is at `index`.
  func has(_ text: StaticString, at index: Int) -> Bool {
    let count = text.utf8CodeUnitCount
    guard index >= 0, index + count <= self.count else { return false }
    return text.withUTF8Buffer { memcmp(baseAddress! + index, $0.baseAddress!, count) == 0 }
  }

  /// The offset after the first `text` from `index`, or nil.
  func end(of text: StaticString, from index: Int) -> Int? {
    var index = index
    while index + text.utf8CodeUnitCount <= count {
      if has(text, at: index) { return index + text.utf8CodeUnitCount }
      index += 1
    }
    return nil
  }

  /// The first offset from `index` that is not XML white space.
  func skippingSpace(from index: Int) -> Int {
    var index = index
    while index < count, [0x20, 0x09, 0x0A, 0x0D].contains(self[index]) { index += 1 }
    return index
  }

  /// The end of the name that starts at `index` (`index` itself when none does).
  func nameEnd(from index: Int) -> Int {
    guard index < count, isNameStart(self[index]) else { return index }
    var index = index + 1
    while index < count,
      isNameStart(self[index]) || self[index].isDigit
        || self[index] == UInt8(ascii: "-") || self[index] == UInt8(ascii: ".")
    {
      index += 1
    }
    return index
  }

  /// Whether `byte` may start an XML name (any byte of a non-ASCII character may).
  func isNameStart(_ byte: UInt8) -> Bool {
    byte >= 0x80 || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
      || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
  }
}

extension UInt8 {
  fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
  fileprivate var isHexDigit: Bool {
    isDigit || (self | 0x20 >= UInt8(ascii: "a") && self | 0x20 <= UInt8(ascii: "f"))
  }
}
