import Foundation

/// Finds the client and the page in one access-log line, working on bytes. Each line is
/// scanned once, eight bytes at a time, for the byte it needs next or the line's end.
enum LineParser {
  private static let space = UInt8(ascii: " ")
  private static let quote = UInt8(ascii: "\"")
  private static let newline = UInt8(ascii: "\n")
  private static let questionMark = UInt8(ascii: "?")

  enum Line {
    /// The client (the first space-delimited field) and the page (the second token of the
    /// quoted request), as ranges of the bytes.
    case visit(client: Range<Int>, page: Range<Int>)
    /// A static file left out by `excludeStatic`.
    case skipped
    /// No quoted request, or a request of fewer than two tokens.
    case malformed
  }

  /// Parses the line that starts at `start` in `bytes`; returns it and where it ends: at its
  /// newline, or at the end of `bytes`. A trailing `\r` never reaches a client or a page, as
  /// both end at a delimiter before it.
  static func parse(_ bytes: UnsafeRawBufferPointer, from start: Int, options: AnalysisOptions)
    -> (line: Line, end: Int)
  {
    let scanner = Scanner(bytes: bytes)
    // The client ends at the first space; the request opens at the first quote, which may
    // come first.
    var clientEnd = scanner.first(space, quote, newline, from: start)
    var open = clientEnd
    if clientEnd < bytes.count && bytes[clientEnd] == space {
      open = scanner.first(quote, newline, newline, from: clientEnd + 1)
    } else if clientEnd < bytes.count && bytes[clientEnd] == quote {
      clientEnd = scanner.first(space, newline, newline, from: clientEnd + 1)
    }
    guard open < bytes.count, bytes[open] == quote else { return (.malformed, open) }

    // The second token of the request, tokens being separated by runs of spaces.
    var index = open + 1
    while index < bytes.count && bytes[index] == space { index += 1 }
    index = scanner.first(space, quote, newline, from: index)
    while index < bytes.count && bytes[index] == space { index += 1 }
    let pageStart = index
    var pageEnd = scanner.first(space, quote, newline, from: index)
    let close = scanner.first(quote, newline, newline, from: pageEnd)
    guard close < bytes.count, bytes[close] == quote else { return (.malformed, close) }
    let end = scanner.newline(from: close)
    guard pageStart < pageEnd else { return (.malformed, end) }

    if options.stripQuery {
      var cut = pageStart
      while cut < pageEnd && bytes[cut] != questionMark { cut += 1 }
      pageEnd = cut
    }
    if options.excludeStatic && StaticFiles.matches(bytes, pageStart..<pageEnd) {
      return (.skipped, end)
    }
    return (.visit(client: start..<clientEnd, page: pageStart..<pageEnd), end)
  }
}

/// Searches bytes eight at a time.
private struct Scanner {
  let bytes: UnsafeRawBufferPointer

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
  func first(_ a: UInt8, _ b: UInt8, _ c: UInt8, from start: Int) -> Int {
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

  /// The index of the first newline at or after `start`; `bytes.count` if none.
  func newline(from start: Int) -> Int {
    guard start < bytes.count,
      let found = memchr(bytes.baseAddress! + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
    else { return bytes.count }
    return bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
  }
}

/// Images, stylesheets, scripts and fonts, by extension, as GoAccess leaves them out.
enum StaticFiles {
  static let extensions: Set<String> = [
    "png", "jpg", "jpeg", "gif", "ico", "svg", "webp", "bmp", "tif", "tiff", "avif",
    "css", "js", "mjs", "map",
    "woff", "woff2", "ttf", "otf", "eot",
  ]

  /// Whether the path of `page` (before any `?`) ends in a static extension.
  static func matches(_ line: UnsafeRawBufferPointer, _ page: Range<Int>) -> Bool {
    var end = page.lowerBound
    while end < page.upperBound && line[end] != UInt8(ascii: "?") { end += 1 }
    var dot = end
    while dot > page.lowerBound && line[dot - 1] != UInt8(ascii: ".")
      && line[dot - 1] != UInt8(ascii: "/")
    {
      dot -= 1
    }
    guard dot > page.lowerBound, line[dot - 1] == UInt8(ascii: "."), end - dot <= 5 else {
      return false
    }
    let text = String(decoding: UnsafeRawBufferPointer(rebasing: line[dot..<end]), as: UTF8.self)
    return extensions.contains(text.lowercased())
  }
}
