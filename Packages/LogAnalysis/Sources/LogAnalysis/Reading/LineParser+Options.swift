import LogFormats

/// The fast reading of a combined or common line (`LineParser`) with the options that apply
/// on the way: `stripQuery` and `excludeStatic`.
extension LineParser {
  enum Line {
    /// The client (the first space-delimited field) and the page (the second token of the
    /// quoted request), as ranges of the bytes, where the time starts (after its `[`), and
    /// where the request's closing quote is (see `tail(_:after:)`).
    case visit(client: Range<Int>, page: Range<Int>, time: Int, close: Int)
    /// A line that reads but whose request names no page (`RequestLine`): nginx's `-`, a
    /// scanner's junk. It has a client, a time, a status and a size.
    case noPage(client: Range<Int>, time: Int, close: Int)
    /// A static file left out by `excludeStatic`.
    case skipped
    /// A line that is not a combined or common log line.
    case malformed
  }

  /// Parses the line that starts at `start` in `bytes`; returns it and where it ends: at its
  /// newline, or at the end of `bytes`. A trailing `\r` never reaches a client or a page, as
  /// both end at a delimiter before it.
  static func parse(_ bytes: UnsafeRawBufferPointer, from start: Int, options: AnalysisOptions)
    -> (line: Line, end: Int)
  {
    let (found, end) = fields(bytes, from: start)
    guard let found else { return (.malformed, end) }
    guard found.hasPage else {
      return (.noPage(client: found.client, time: found.time, close: found.close), end)
    }
    let page = found.page
    var pageEnd = page.upperBound
    if options.stripQuery {
      var cut = page.lowerBound
      while cut < pageEnd && bytes[cut] != UInt8(ascii: "?") { cut += 1 }
      pageEnd = cut
    }
    if options.excludeStatic && StaticFiles.matches(bytes, page.lowerBound..<pageEnd) {
      return (.skipped, end)
    }
    return (
      .visit(
        client: found.client, page: page.lowerBound..<pageEnd, time: found.time,
        close: found.close), end
    )
  }
}
