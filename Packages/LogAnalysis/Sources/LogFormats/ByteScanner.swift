import Foundation

/// Searches bytes eight at a time.
package struct ByteScanner {
  package let bytes: UnsafeRawBufferPointer

  package init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highs: UInt64 = 0x8080_8080_8080_8080

  /// The high bit of each byte of `word` that equals `byte`. Bits above the lowest may be
  /// false; the lowest is exact.
  @inline(__always)
  private static func matches(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    let difference = word ^ (UInt64(byte) &* ones)
    return (difference &- ones) & ~difference & highs
  }

  /// The index of the first of `a`, `b` or `c` at or after `start`; `bytes.count` if none.
  @inline(__always)
  package func first(_ a: UInt8, _ b: UInt8, _ c: UInt8, from start: Int) -> Int {
    var index = start
    let count = bytes.count
    while index + 8 <= count {
      let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      let found = Self.matches(word, a) | Self.matches(word, b) | Self.matches(word, c)
      if found != 0 { return index + found.trailingZeroBitCount / 8 }
      index += 8
    }
    while index < count && bytes[index] != a && bytes[index] != b && bytes[index] != c {
      index += 1
    }
    return index
  }

  /// The index of the first of `a`, `b` or `c` at or after `start`, passing over a `"` that a
  /// backslash escapes (Apache writes a quote inside a quoted field as `\"`).
  @inline(__always)
  package func firstUnescaped(_ a: UInt8, _ b: UInt8, _ c: UInt8, from start: Int) -> Int {
    var index = first(a, b, c, from: start)
    while index < bytes.count && bytes[index] == UInt8(ascii: "\"")
      && isEscaped(index, after: start)
    {
      index = first(a, b, c, from: index + 1)
    }
    return index
  }

  /// Whether the byte at `index` follows an odd number of backslashes that start at or
  /// after `start`.
  package func isEscaped(_ index: Int, after start: Int) -> Bool {
    var backslashes = 0
    while index - backslashes - 1 >= start && bytes[index - backslashes - 1] == UInt8(ascii: "\\") {
      backslashes += 1
    }
    return backslashes % 2 == 1
  }

  /// The index of the last `"` in `start..<end`, if any, looking back from `end` (in a
  /// combined line it is the last byte, or one before a `\r`).
  package func lastQuote(from start: Int, before end: Int) -> Int? {
    var index = end - 1
    while index >= start && bytes[index] != UInt8(ascii: "\"") { index -= 1 }
    return index >= start ? index : nil
  }

  /// The index of the first newline at or after `start`; `bytes.count` if none.
  package func newline(from start: Int) -> Int {
    guard start < bytes.count,
      let found = memchr(bytes.baseAddress! + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
    else { return bytes.count }
    return bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
  }
}
