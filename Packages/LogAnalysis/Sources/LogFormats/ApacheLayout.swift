/// A compiled Apache `LogFormat` string: its text between directives, and the directives
/// whose values the analysis reads. A line must hold the whole format, and its fields what
/// they must: `%t` a time in brackets (checked as `ApacheTime`), `%{sec}t` and
/// `%{%Y-%m-%dT…}t` one that `LogTime` reads, another `%{pattern}t` one its strftime pattern
/// reads (`LogTime.reading(_:pattern:)`), `%s` three digits, `%b`, `%B` and `%O` a size
/// (`-` or digits). A client (`%h`, `%a`) followed by `:` ends at the last colon before the
/// next space, so that `%a:%{remote}p` reads IPv6 addresses too, as AWS writes them.
package struct ApacheLayout: Sendable, Equatable {
  package enum Field: Sendable, Equatable {
    case host, address, time, request, status, method, path, query, userAgent, referer, size
    /// `%{sec}t` or `%{%Y-%m-%dT%H:%M:%S}t`: seconds since 1970 or ISO 8601, unbracketed.
    case formattedTime
    /// `%{…}t` with another strftime pattern (`%{%d.%m.%Y %H:%M:%S}t`), read by it.
    case patternTime
    case other
  }

  /// Text, or a directive. Plain values only, so that reading a line retains nothing.
  package struct Token: Sendable, Equatable {
    /// Text: where its bytes are in `text`. Empty for a directive.
    var literal: Range<Int> = 0..<0
    /// A directive; nil for text.
    var field: Field?
    /// A directive's value ends at an unescaped quote when it is quoted; otherwise at
    /// `terminator` (the next text's first byte; nil at the end of the line) or `alternative`.
    var quoted = false
    var terminator: UInt8?
    var alternative: UInt8?
    /// A client followed by `:` and its port: it ends at the last colon before a space.
    var endsAtLastColon = false
    /// A `patternTime`'s strftime pattern: where its bytes are in `text`.
    var pattern: Range<Int> = 0..<0
  }

  package let tokens: [Token]
  /// The bytes of the text tokens.
  package let text: [UInt8]
  /// The token at which a line may end: after the size, in the combined format, which reads
  /// common lines too. Nil: a line holds every token.
  package let optionalTail: Int?
  /// Whether a space of the format matches a run of spaces, as Squid pads its numbers.
  package let spaceRuns: Bool
  /// Whether a request's absolute URL (`GET http://host:80/page HTTP/1.1`, as AWS load
  /// balancers log it) is read as its path (`/page`).
  package let absoluteTargets: Bool

  /// The layout of a LogFormat: `LogFormat.combined`'s lines may end after their size,
  /// `.squid`'s spaces are runs, `.elb`'s and `.alb`'s requests name absolute URLs.
  package init(_ format: LogFormat) throws(AnalysisOptionError) {
    guard case .apache(let text) = format else {
      throw AnalysisOptionError("\(format.name) is no Apache LogFormat")
    }
    try self.init(
      text, commonTailOptional: [.combined, .vcombined, .compose].contains(format),
      spaceRuns: format == .squid || format == .compose,
      absoluteTargets: format == .elb || format == .alb)
  }

  /// With `commonTailOptional` (the combined format), a line may end after its size.
  package init(
    _ format: String, commonTailOptional: Bool = false, spaceRuns: Bool = false,
    absoluteTargets: Bool = false
  ) throws(AnalysisOptionError) {
    var pieces: [(literal: [UInt8]?, field: Field?, argument: [UInt8])] = []
    var literal: [UInt8] = []
    let bytes = Array(format.utf8)
    var index = 0
    func fail(_ reason: String) -> AnalysisOptionError {
      AnalysisOptionError("the log format '\(format)' \(reason)")
    }
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "%") else {
        literal.append(bytes[index])
        index += 1
        continue
      }
      index += 1
      // Modifiers: < or >, and status conditions such as !200,304.
      while index < bytes.count,
        "<>!,0123456789".utf8.contains(bytes[index])
      {
        index += 1
      }
      var argument: [UInt8] = []
      if index < bytes.count && bytes[index] == UInt8(ascii: "{") {
        guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "}")) else {
          throw fail("has a %{ without its }")
        }
        argument = Array(bytes[(index + 1)..<close])
        index = close + 1
      }
      guard index < bytes.count else { throw fail("ends in the middle of a directive") }
      let letter = bytes[index]
      index += 1
      if letter == UInt8(ascii: "%") {
        literal.append(letter)
        continue
      }
      if !literal.isEmpty {
        pieces.append((literal, nil, []))
        literal = []
      }
      pieces.append((nil, Self.field(letter, argument: argument), argument))
    }
    if !literal.isEmpty { pieces.append((literal, nil, [])) }

    var tokens: [Token] = []
    var text: [UInt8] = []
    for (offset, piece) in pieces.enumerated() {
      if let literal = piece.literal {
        tokens.append(Token(literal: text.count..<text.count + literal.count))
        text += literal
        continue
      }
      let field = piece.field!
      let before = offset > 0 ? pieces[offset - 1].literal : nil
      let after = offset + 1 < pieces.count ? pieces[offset + 1] : nil
      if let after, after.literal == nil, !(field == .path && after.field == .query) {
        throw fail("has two directives with nothing between them (only %U%q may touch)")
      }
      let quoted =
        before?.last == UInt8(ascii: "\"") && after?.literal?.first == UInt8(ascii: "\"")
      // %U%q: the path ends at the query's `?`, or where the query would end.
      let next = after?.field == .query ? pieces[safe: offset + 2]?.literal : after?.literal
      var pattern = 0..<0
      if field == .patternTime {
        let expanded = LogTime.expandingShorthands(piece.argument)
        pattern = text.count..<text.count + expanded.count
        text += expanded
      }
      tokens.append(
        Token(
          field: field, quoted: quoted, terminator: next?.first,
          alternative: after?.field == .query ? UInt8(ascii: "?") : next?.first,
          endsAtLastColon: [.host, .address].contains(field) && next?.first == UInt8(ascii: ":"),
          pattern: pattern))
    }
    guard tokens.contains(where: { [.host, .address].contains($0.field) }) else {
      throw fail("has no client (%h or %a)")
    }
    guard tokens.contains(where: { [.request, .path].contains($0.field) }) else {
      throw fail("has no page (%r or %U)")
    }
    self.tokens = tokens
    self.text = text
    optionalTail =
      commonTailOptional ? tokens.lastIndex { $0.field == .size }.map { $0 + 1 } : nil
    self.spaceRuns = spaceRuns
    self.absoluteTargets = absoluteTargets
  }

  private static func field(_ letter: UInt8, argument: [UInt8]) -> Field {
    switch Unicode.Scalar(letter) {
    case "h": .host
    case "a": .address
    case "t": argument.isEmpty ? .time : timeField(String(decoding: argument, as: UTF8.self))
    case "r": .request
    case "s": .status
    case "m": .method
    case "U": .path
    case "q": .query
    case "b", "B", "O": .size
    case "i":
      switch String(decoding: argument, as: UTF8.self).lowercased() {
      case "user-agent": .userAgent
      case "referer": .referer
      default: .other
      }
    default: .other
    }
  }

  /// `%{sec}t` (`%{begin:sec}t`, …) and ISO 8601 strftime formats are times `LogTime` reads;
  /// other formats, and the fractions (`%{msec_frac}t`), are not read.
  private static func timeField(_ argument: String) -> Field {
    var format = Substring(argument)
    for prefix in ["begin:", "end:"] where format.hasPrefix(prefix) {
      format = format.dropFirst(prefix.count)
    }
    if format == "sec" || format.hasPrefix("%Y-%m-%dT") { return .formattedTime }
    return format.contains("%") ? .patternTime : .other
  }

  package var hasTime: Bool {
    tokens.contains { [.time, .formattedTime, .patternTime].contains($0.field) }
  }
  package var hasUserAgent: Bool { tokens.contains { $0.field == .userAgent } }
  package var hasStatus: Bool { tokens.contains { $0.field == .status } }

  /// Reads the fields of `line` into `record`; false when the line does not follow the format.
  /// The fields after the line's end are left absent.
  package func parse(_ line: UnsafeRawBufferPointer, into record: inout LogRecord) -> Bool {
    tokens.withUnsafeBufferPointer { tokens in
      text.withUnsafeBufferPointer { text in
        parse(line, tokens: tokens, text: text, into: &record)
      }
    }
  }

  private func parse(
    _ line: UnsafeRawBufferPointer, tokens: UnsafeBufferPointer<Token>,
    text: UnsafeBufferPointer<UInt8>, into record: inout LogRecord
  ) -> Bool {
    let scanner = ByteScanner(bytes: line)
    var index = 0
    for (position, token) in tokens.enumerated() {
      guard let field = token.field else {
        // A common line read as combined ends after its size.
        if index == line.count { return position == optionalTail }
        let count = token.literal.count
        guard index + count <= line.count else { return false }
        for offset in 0..<count
        where line[index + offset] != text[token.literal.lowerBound + offset] {
          return false
        }
        index += count
        if spaceRuns && line[index - 1] == UInt8(ascii: " ") {
          while index < line.count && line[index] == UInt8(ascii: " ") { index += 1 }
        }
        continue
      }
      var start = index
      var end: Int
      if field == .time && index < line.count && line[index] == UInt8(ascii: "[") {
        guard ApacheTime.isBracketed(line, at: index) else { return false }
        end = index + ApacheTime.bracketedLength - 1
        index = end + 1
        start += 1
      } else if token.endsAtLastColon {
        let space = scanner.first(
          UInt8(ascii: " "), UInt8(ascii: " "), UInt8(ascii: " "), from: index)
        end = line[index..<space].lastIndex(of: UInt8(ascii: ":")) ?? space
        index = end
      } else if token.quoted {
        end = scanner.firstUnescaped(
          UInt8(ascii: "\""), UInt8(ascii: "\""), UInt8(ascii: "\""), from: index)
        index = end
      } else if let stop = token.terminator ?? token.alternative {
        let other = token.alternative ?? stop
        end = scanner.first(stop, other, other, from: index)
        index = end
      } else {
        end = line.count
        index = end
      }
      let value = UnsafeRawBufferPointer(rebasing: line[start..<end])
      if field == .patternTime {
        let pattern = UnsafeRawBufferPointer(
          UnsafeBufferPointer(rebasing: text[token.pattern]))
        guard let reading = LogTime.reading(value, pattern: pattern) else { return false }
        record.patternTime = reading
        continue
      }
      let bracketed = start > 0 && line[start - 1] == UInt8(ascii: "[")
      guard Self.holds(field, value, bracketed: bracketed, quoted: token.quoted) else {
        return false
      }
      record.set(field, value)
    }
    return true
  }

  /// Whether `value` is what `field` must hold. A time is in brackets (checked already, or
  /// after a `[` of the format): Apache's `%t` never writes one without. Apache writes `-` for
  /// a value it lacks: an empty one unquoted is a broken line, and so is one with a quote in it.
  @inline(__always)
  private static func holds(
    _ field: Field, _ value: UnsafeRawBufferPointer, bracketed: Bool, quoted: Bool
  ) -> Bool {
    switch field {
    case .status:
      return value.count == 3 && value.allSatisfy(LineParser.isDigit)
    case .size:
      return value.count == 1 && value[0] == UInt8(ascii: "-")
        || !value.isEmpty && value.allSatisfy(LineParser.isDigit)
    case .time:
      return bracketed
    case .formattedTime:
      return LogTime.seconds(value) != nil
    case .other, .host, .address:
      // Unquoted, a value has no quote (as on the fast path: a client, an identity, a user).
      return quoted || !value.isEmpty && !value.contains(UInt8(ascii: "\""))
    default:
      return true
    }
  }
}

extension ApacheLayout {
  /// With `absoluteTargets`, a request's method and the path of its URL, as `method` and
  /// `path`: `GET http://host:80/page?q HTTP/1.1` visits `/page?q`, and a URL without a path
  /// `/`. A request that does not read (a TCP listener logs `- - - `) stays as it is: a visit
  /// that names no page. Returns whether the request was read so.
  @discardableResult
  package func readTarget(of record: inout LogRecord, arena: ByteArena) -> Bool {
    guard absoluteTargets, let request = record.request,
      let (method, target) = RequestLine.methodAndPage(request)
    else { return false }
    record.request = nil
    record.method = record.method ?? method
    record.path = Self.path(of: target, arena: arena)
    return true
  }

  /// The path and query of an absolute URL (`scheme://authority/path?query`), `/` when it
  /// has no path; `target` itself when it is no absolute URL.
  package static func path(of target: UnsafeRawBufferPointer, arena: ByteArena)
    -> UnsafeRawBufferPointer
  {
    let slash = UInt8(ascii: "/")
    guard target.first != slash, let colon = target.firstIndex(of: UInt8(ascii: ":")),
      colon + 2 < target.count, target[colon + 1] == slash, target[colon + 2] == slash
    else { return target }
    let rest = target[(colon + 3)...]
    let end =
      rest.firstIndex { $0 == slash || $0 == UInt8(ascii: "?") } ?? target.count
    if end < target.count && target[end] == slash {
      return UnsafeRawBufferPointer(rebasing: target[end...])
    }
    return withUnsafeBytes(of: slash) {
      arena.joined($0, UnsafeRawBufferPointer(rebasing: target[end...]))
    }
  }
}

extension Array {
  fileprivate subscript(safe index: Int) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}
