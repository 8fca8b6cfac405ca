import Foundation

/// Reads one line of a combined or common log, working on bytes, and checks that it holds
/// what such a line must: a client, an identity and a user, `[` a time `]` (`ApacheTime`), a
/// quoted request (which names a page when it reads, `RequestLine`), a status of three
/// digits and a size (`-` or digits), then either the line's end
/// (common) or a quoted referer and a quoted user agent (combined; anything may follow them, as
/// nginx's extra fields). Each line is scanned once, eight bytes at a time, for the byte it
/// needs next or the line's end.
///
/// Why two readers of combined lines, this one and `ApacheLayout`'s: this one reads only the
/// client, the page and the time, with the options applied on the way, which is all most runs
/// need; it took 1.40 s on `Benchmarks/compare_analyze.sh`'s 1 GB log where a run that reads
/// every field took 1.49 s (medians, 2026-11-27). Until one reader keeps that speed,
/// `CombinedReadersTests` and the fuzzers hold the two equal.
package enum LineParser {
  private static let space = UInt8(ascii: " ")
  private static let quote = UInt8(ascii: "\"")
  private static let newline = UInt8(ascii: "\n")

  /// A line's shape: common (it ends after the size) or combined.
  package enum Shape {
    case common, combined
  }

  /// The shape of `line` (without its newline), nil when it is neither.
  package static func shape(of line: UnsafeRawBufferPointer) -> Shape? {
    fields(line, from: 0).fields.map { $0.isCombined ? .combined : .common }
  }

  /// What a line holds, as ranges of the bytes.
  package struct Fields {
    package var client: Range<Int>
    package var page: Range<Int>
    /// Whether the request reads as one (`RequestLine`); when not, `page` is no page.
    package var hasPage: Bool
    /// Where the time starts, after its `[`.
    package var time: Int
    /// Where the request's closing quote is.
    package var close: Int
    package var isCombined: Bool
  }

  /// The fields of the line that starts at `start`, nil when it does not hold them, and where
  /// the line ends.
  @inline(__always)
  package static func fields(_ bytes: UnsafeRawBufferPointer, from start: Int)
    -> (fields: Fields?, end: Int)
  {
    let scanner = ByteScanner(bytes: bytes)
    let malformed = { (from: Int) in
      (nil as Fields?, scanner.newline(from: min(from, bytes.count)))
    }
    // The client, the identity and the user, each ending at a space; then the time.
    let clientEnd = scanner.first(space, quote, newline, from: start)
    guard clientEnd > start, clientEnd < bytes.count, bytes[clientEnd] == space else {
      return malformed(clientEnd)
    }
    let time: Int
    if clientEnd + 4 < bytes.count && bytes[clientEnd + 1] == UInt8(ascii: "-")
      && bytes[clientEnd + 2] == space && bytes[clientEnd + 3] == UInt8(ascii: "-")
      && bytes[clientEnd + 4] == space
    {
      time = clientEnd + 5  // `- -`, as nearly every line has them
    } else {
      let identityEnd = scanner.first(space, quote, newline, from: clientEnd + 1)
      guard identityEnd > clientEnd + 1, identityEnd < bytes.count, bytes[identityEnd] == space
      else { return malformed(identityEnd) }
      let userEnd = scanner.first(space, quote, newline, from: identityEnd + 1)
      guard userEnd > identityEnd + 1, userEnd < bytes.count, bytes[userEnd] == space else {
        return malformed(userEnd)
      }
      time = userEnd + 1
    }
    guard time + ApacheTime.bracketedLength + 1 < bytes.count,
      ApacheTime.isBracketed(bytes, at: time), bytes[time + ApacheTime.bracketedLength] == space,
      bytes[time + ApacheTime.bracketedLength + 1] == quote
    else { return malformed(time) }
    let open = time + ApacheTime.bracketedLength + 1

    // The method and the target, the request's first two tokens (tokens being separated by
    // runs of spaces), then its closing quote.
    var index = open + 1
    while index < bytes.count && bytes[index] == space { index += 1 }
    let methodStart = index
    index = scanner.firstUnescaped(space, quote, newline, from: index)
    let methodEnd = index
    while index < bytes.count && bytes[index] == space { index += 1 }
    let pageStart = index
    let pageEnd = scanner.firstUnescaped(space, quote, newline, from: index)
    let close = scanner.firstUnescaped(quote, newline, newline, from: pageEnd)
    guard close < bytes.count, bytes[close] == quote else { return malformed(close) }
    guard let (end, isCombined) = tail(bytes, after: close, scanner) else {
      return malformed(close)
    }
    let hasPage =
      pageStart < pageEnd && RequestLine.isMethod(bytes, methodStart..<methodEnd)
      && RequestLine.isTarget(bytes, pageStart..<pageEnd)
      && RequestLine.isProtocol(bytes, pageEnd..<close)
    return (
      Fields(
        client: start..<clientEnd, page: pageStart..<pageEnd, hasPage: hasPage, time: time + 1,
        close: close, isCombined: isCombined), end
    )
  }

  /// After the request's closing quote at `close`: ` STATUS SIZE`, then the line's end or
  /// ` "referer" "agent"` and anything. The line's end (its newline, or the end of `bytes`)
  /// and whether it had the referer and the agent; nil when the line does not hold them.
  @inline(__always)
  private static func tail(
    _ bytes: UnsafeRawBufferPointer, after close: Int, _ scanner: ByteScanner
  ) -> (end: Int, isCombined: Bool)? {
    // ` DDD ` and the size's first byte.
    guard close + 6 < bytes.count, bytes[close + 1] == space, isDigit(bytes[close + 2]),
      isDigit(bytes[close + 3]), isDigit(bytes[close + 4]), bytes[close + 5] == space
    else { return nil }
    var index = close + 6
    if bytes[index] == UInt8(ascii: "-") {
      index += 1
    } else {
      guard isDigit(bytes[index]) else { return nil }
      while index < bytes.count && isDigit(bytes[index]) { index += 1 }
    }
    if index == bytes.count || bytes[index] == newline { return (index, false) }
    if bytes[index] == UInt8(ascii: "\r") {
      return index + 1 == bytes.count || bytes[index + 1] == newline ? (index + 1, false) : nil
    }
    // ` "referer" "agent"`
    guard index + 2 < bytes.count, bytes[index] == space, bytes[index + 1] == quote else {
      return nil
    }
    // The referer is short ("-", or a URL): eight bytes at a time; the line's end, past the
    // long agent, with `memchr`.
    let refererEnd =
      index + 3 < bytes.count && bytes[index + 2] == UInt8(ascii: "-")
        && bytes[index + 3] == quote
      ? index + 3  // `"-"`, as most lines have it
      : scanner.firstUnescaped(quote, newline, newline, from: index + 2)
    guard refererEnd + 2 < bytes.count, bytes[refererEnd] == quote,
      bytes[refererEnd + 1] == space, bytes[refererEnd + 2] == quote
    else { return nil }
    let end = scanner.newline(from: refererEnd + 3)
    // The agent is closed when the line's last quote is after its start and not escaped; when
    // that quote is escaped (in fields after the agent), by its first quote that is not, as
    // the full reading finds it.
    guard let last = scanner.lastQuote(from: refererEnd + 3, before: end) else { return nil }
    if !scanner.isEscaped(last, after: refererEnd + 3) { return (end, true) }
    let agentEnd = scanner.firstUnescaped(quote, newline, newline, from: refererEnd + 3)
    return agentEnd < end && bytes[agentEnd] == quote ? (end, true) : nil
  }

  /// What follows the request of a line that `parse` read, whose closing quote is at `close`:
  /// the status, the size (0 for `-`) and, when asked for, the referer (its bytes between the
  /// quotes; empty in a common line).
  package static func tail(_ bytes: UnsafeRawBufferPointer, after close: Int, referer reading: Bool)
    -> (
      status: Int, size: Int, referer: UnsafeRawBufferPointer
    )
  {
    let digit = { (offset: Int) in Int(bytes[close + offset] &- UInt8(ascii: "0")) }
    let status = digit(2) * 100 + digit(3) * 10 + digit(4)
    var index = close + 6
    while index < bytes.count && bytes[index] != space && bytes[index] != newline
      && bytes[index] != UInt8(ascii: "\r")
    {
      index += 1
    }
    let size = SizeField.value(UnsafeRawBufferPointer(rebasing: bytes[(close + 6)..<index]))
    var referer = UnsafeRawBufferPointer(rebasing: bytes[index..<index])
    if reading && index + 1 < bytes.count && bytes[index] == space && bytes[index + 1] == quote {
      let end = ByteScanner(bytes: bytes).firstUnescaped(quote, newline, newline, from: index + 2)
      referer = UnsafeRawBufferPointer(rebasing: bytes[(index + 2)..<end])
    }
    return (status, size, referer)
  }

  @inline(__always)
  package static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

  /// Whether a line (without its line break) is blank: nothing, or spaces and tabs. A blank
  /// line is no line, in any format. Of bytes, not of any sequence: called for every line of
  /// a log read by its layout from another module, a generic one was not specialized there:
  /// looking up its types was 7% of the samples of `--session-gap 30m --status 2xx`, whose
  /// run on a 1 GB log took 2.04 s instead of 1.65.
  package static func isBlank(_ line: UnsafeRawBufferPointer) -> Bool {
    for byte in line where byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") {
      return false
    }
    return true
  }
}
