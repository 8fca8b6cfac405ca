/// Turns a line's fields into a visit (its client key, page and time), or leaves it out by
/// the options' filters. Scratch state for one `Partial.reading` call: it remembers which
/// user agents are bots.
final class VisitSelector {
  enum Outcome {
    /// `time` is nil when no time was asked for, or (when asked for a report only) none read.
    case visit(client: UnsafeRawBufferPointer, page: UnsafeRawBufferPointer, time: Int64?)
    /// A line whose request names no page (`RequestLine`), kept by the filters: its client
    /// key, as a visit's, and its time.
    case noPage(client: UnsafeRawBufferPointer, time: Int64?)
    /// Left out by a filter, or a static file left out by `excludeStatic`.
    case skipped
    /// No client, no page, or no time when one is needed.
    case malformed
  }

  private let options: AnalysisOptions
  /// Whether to read each visit's time for the report, even when no option needs it.
  private let readingTimes: Bool
  /// Indexed by status code.
  private let statuses: [Bool]?
  private let methods: [[UInt8]]?
  private let bots: [[UInt8]]
  private var agents = Interner()
  /// Per interned user agent: whether it is a bot's.
  private var isBot: [Bool] = []

  init(options: AnalysisOptions, readingTimes: Bool = false) {
    self.options = options
    self.readingTimes = readingTimes
    let filters = options.filters
    statuses = filters.statuses.map { codes in
      var table = [Bool](repeating: false, count: 600)
      for code in codes { table[code] = true }
      return table
    }
    methods = filters.methods?.map { Array($0.utf8) }
    bots = (BotPatterns.builtIn + filters.botPatterns).map { Array($0.lowercased().utf8) }
  }

  func select(_ record: LogRecord, arena: ByteArena) -> Outcome {
    guard let client = record.client, client.count > 0 else { return .malformed }
    var method = record.method
    var page: UnsafeRawBufferPointer
    if let request = record.request {
      guard let tokens = RequestLine.methodAndPage(request) else {
        return withoutPage(record, method: method, client: client, arena: arena)
      }
      method = method ?? tokens.method
      page = tokens.page
    } else if let path = record.path, path.count > 0 {
      // `-` for the method: no request was made (Squid's `NONE_NONE/000` line for a
      // connection that ended before one, with a pseudo-URL such as `error:…`).
      if let method, method.count == 1, method[0] == UInt8(ascii: "-") {
        return withoutPage(record, method: nil, client: client, arena: arena)
      }
      page = path
      if !options.stripQuery, let query = record.query, query.count > 0 {
        page =
          query[0] == UInt8(ascii: "?")
          ? arena.joined(path, query) : Self.withMark { arena.joined(path, $0, query) }
      }
    } else {
      return .malformed
    }
    if options.stripQuery, let mark = page.firstIndex(of: UInt8(ascii: "?")) {
      page = UnsafeRawBufferPointer(rebasing: page[..<mark])
    }
    let (time, readable) = time(of: record)
    guard readable else { return .malformed }
    if options.excludeStatic && StaticFiles.matches(page, 0..<page.count) { return .skipped }
    guard passes(record, method: method, time: time ?? 0, client: client) else { return .skipped }
    return .visit(client: key(of: record, client: client, arena: arena), page: page, time: time)
  }

  /// The client key of `record`, whose client is `client`: by `options.client`, the address,
  /// or the address and the user agent.
  private func key(
    of record: LogRecord, client: UnsafeRawBufferPointer, arena: ByteArena
  ) -> UnsafeRawBufferPointer {
    guard options.client == .addressAndUserAgent else { return client }
    let agent = record.userAgent ?? UnsafeRawBufferPointer(start: nil, count: 0)
    return Self.withSpace { arena.joined(client, $0, agent) }
  }

  /// The time of `record` when the options need one or a report asks for it (nil otherwise),
  /// and whether it reads where it is needed.
  private func time(of record: LogRecord) -> (time: Int64?, readable: Bool) {
    guard options.needsTime else { return (readingTimes ? record.seconds : nil, true) }
    let seconds = record.seconds
    return (seconds, seconds != nil)
  }

  /// A line whose request names no page: its time (when one is needed or asked for), and
  /// whether the filters keep it.
  private func withoutPage(
    _ record: LogRecord, method: UnsafeRawBufferPointer?, client: UnsafeRawBufferPointer,
    arena: ByteArena
  ) -> Outcome {
    let (time, readable) = time(of: record)
    guard readable else { return .malformed }
    guard passes(record, method: method, time: time ?? 0, client: client) else { return .skipped }
    return .noPage(client: key(of: record, client: client, arena: arena), time: time)
  }

  /// Whether the visit passes every filter.
  private func passes(
    _ record: LogRecord, method: UnsafeRawBufferPointer?, time: Int64,
    client: UnsafeRawBufferPointer
  ) -> Bool {
    let filters = options.filters
    if let statuses {
      guard let code = record.statusCode, code < statuses.count, statuses[code] else {
        return false
      }
    }
    if let methods {
      guard let method, methods.contains(where: { Self.equalIgnoringCase(method, $0) }) else {
        return false
      }
    }
    if let since = filters.since, time < since { return false }
    if let until = filters.until, time >= until { return false }
    if !filters.excludedAddresses.isEmpty,
      let address = AddressRange.address(String(decoding: client, as: UTF8.self)),
      filters.excludedAddresses.contains(where: { $0.contains(address) })
    {
      return false
    }
    if filters.excludeBots, let agent = record.userAgent, isBot(agent) { return false }
    return true
  }

  /// Whether `agent` contains a bot pattern, remembered per distinct agent.
  private func isBot(_ agent: UnsafeRawBufferPointer) -> Bool {
    let id = Int(agents.intern(agent))
    if id == isBot.count {
      let lowered = agent.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }
      isBot.append(
        bots.contains { pattern in
          lowered.count >= pattern.count
            && (0...(lowered.count - pattern.count)).contains {
              lowered[$0..<$0 + pattern.count].elementsEqual(pattern)
            }
        })
    }
    return isBot[id]
  }

  private static func equalIgnoringCase(_ bytes: UnsafeRawBufferPointer, _ capitals: [UInt8])
    -> Bool
  {
    bytes.count == capitals.count
      && zip(bytes, capitals).allSatisfy { ($0 >= 97 && $0 <= 122 ? $0 - 32 : $0) == $1 }
  }

  private static func withMark<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
    withUnsafeBytes(of: UInt8(ascii: "?")) { body($0) }
  }

  private static func withSpace<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
    withUnsafeBytes(of: UInt8(ascii: " ")) { body($0) }
  }
}
