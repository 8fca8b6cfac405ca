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
    let scanner = ByteScanner(bytes: bytes)
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
    index = scanner.firstUnescaped(space, quote, newline, from: index)
    while index < bytes.count && bytes[index] == space { index += 1 }
    let pageStart = index
    var pageEnd = scanner.firstUnescaped(space, quote, newline, from: index)
    let close = scanner.firstUnescaped(quote, newline, newline, from: pageEnd)
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
