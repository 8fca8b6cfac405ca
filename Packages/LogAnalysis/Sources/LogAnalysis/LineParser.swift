import Foundation

/// Finds the client and the page in one access-log line, working on bytes.
enum LineParser {
  private static let space = UInt8(ascii: " ")
  private static let quote = UInt8(ascii: "\"")
  private static let questionMark = UInt8(ascii: "?")

  enum Line {
    /// The client (the first space-delimited field) and the page (the second token of the
    /// quoted request), as ranges of the line.
    case visit(client: Range<Int>, page: Range<Int>)
    /// A static file left out by `excludeStatic`.
    case skipped
    /// No quoted request, or a request of fewer than two tokens.
    case malformed
  }

  static func parse(_ line: UnsafeRawBufferPointer, options: AnalysisOptions) -> Line {
    guard let base = line.baseAddress else { return .malformed }
    let count = line.count
    func find(_ byte: UInt8, from start: Int) -> Int? {
      guard start < count, let found = memchr(base + start, Int32(byte), count - start) else {
        return nil
      }
      return base.distance(to: UnsafeRawPointer(found))
    }
    let clientEnd = find(space, from: 0) ?? count
    guard let open = find(quote, from: 0), let close = find(quote, from: open + 1) else {
      return .malformed
    }

    // The second token of the request, tokens being separated by runs of spaces.
    var index = open + 1
    while index < close && line[index] == space { index += 1 }
    while index < close && line[index] != space { index += 1 }
    while index < close && line[index] == space { index += 1 }
    guard index < close else { return .malformed }
    let pageStart = index
    while index < close && line[index] != space { index += 1 }
    var pageEnd = index

    if options.stripQuery {
      var cut = pageStart
      while cut < pageEnd && line[cut] != questionMark { cut += 1 }
      pageEnd = cut
    }
    if options.excludeStatic && StaticFiles.matches(line, pageStart..<pageEnd) {
      return .skipped
    }
    return .visit(client: 0..<clientEnd, page: pageStart..<pageEnd)
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
