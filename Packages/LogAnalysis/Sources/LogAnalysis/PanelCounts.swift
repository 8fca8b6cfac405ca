/// What the panels (`AnalysisOptions.panels`) count of the visits kept: by page and client id
/// (those of the `Partial` they belong to), by status code, hour and day, and by referrer.
/// The tables of panels not chosen stay empty.
struct PanelCounts: Sendable {
  /// Per page id: visits (`pages`, `bandwidth`), bytes (`bandwidth`), visits answered 404
  /// (`notFound`).
  var pageHits: [Int] = []
  var pageBytes: [Int] = []
  var notFound: [Int] = []
  /// Per status code, 0 to 999.
  var statuses: [Int] = []
  /// Per hour of the day, by the time as the line wrote it.
  var hours: [Int] = []
  /// Per day (days since 1970, by the time as the line wrote it).
  var days: [Int64: Int] = [:]
  var referrers = Interner()
  /// Per referrer id.
  var referrerHits: [Int] = []
  /// Per client id: visits and bytes.
  var clientHits: [Int] = []
  var clientBytes: [Int] = []
  /// Every visit's bytes (`bandwidth`).
  var bytes = 0

  static let statusCount = 1000
  /// The most bytes one line may say it sent (1 PB): more is taken as this. Sums of bytes
  /// stop at `Int.max` rather than overflow.
  static let maxSize = 1 << 50

  init(panels: Panels = []) {
    if panels.contains(.status) { statuses = Array(repeating: 0, count: Self.statusCount) }
    if panels.contains(.hours) { hours = Array(repeating: 0, count: 24) }
  }

  /// The value of a size field: digits (at most `maxSize`), or 0 for `-` or anything else.
  static func size(_ bytes: UnsafeRawBufferPointer) -> Int {
    var value = 0
    for byte in bytes {
      guard LineParser.isDigit(byte) else { return 0 }
      value = min(value * 10 + Int(byte &- UInt8(ascii: "0")), maxSize)
    }
    return value
  }

  /// Counts one visit: to `page` by `client`, answered `status` (-1 for none) with `size`
  /// bytes, coming from `referer` (empty for none), at `time` (seconds since 1970 as the line
  /// wrote them; nil for none).
  mutating func add(
    page: Int32, client: Int32, status: Int, size: Int, referer: UnsafeRawBufferPointer,
    time: Int64?, panels: Panels
  ) {
    if panels.countPageHits { Self.add(1, at: page, to: &pageHits) }
    if panels.contains(.bandwidth) {
      Self.add(size, at: page, to: &pageBytes)
      bytes = Self.sum(bytes, size)
    }
    if panels.contains(.status) && status >= 0 { statuses[status] += 1 }
    if panels.contains(.notFound) && status == 404 { Self.add(1, at: page, to: &notFound) }
    if panels.contains(.hours), let time {
      let (day, second) = time.quotientAndRemainder(dividingBy: 86_400)
      let (whole, into) = second < 0 ? (day - 1, second + 86_400) : (day, second)
      hours[Int(into / 3600)] += 1
      days[whole, default: 0] += 1
    }
    if panels.contains(.referrers) && Self.isReferrer(referer) {
      Self.add(1, at: referrers.intern(referer, hash: Hashing.hash(referer)), to: &referrerHits)
    }
    if panels.contains(.clients) {
      Self.add(1, at: client, to: &clientHits)
      Self.add(size, at: client, to: &clientBytes)
    }
  }

  /// Whether a referer field names a referrer: not empty, not `-`.
  static func isReferrer(_ referer: UnsafeRawBufferPointer) -> Bool {
    !referer.isEmpty && !(referer.count == 1 && referer[0] == UInt8(ascii: "-"))
  }

  @inline(__always)
  private static func add(_ amount: Int, at id: Int32, to counts: inout [Int]) {
    let index = Int(id)
    if index >= counts.count {
      counts.append(
        contentsOf: repeatElement(0, count: max(index + 1 - counts.count, counts.count)))
    }
    counts[index] = sum(counts[index], amount)
  }

  /// `a + b`, or `Int.max` when that overflows.
  @inline(__always)
  static func sum(_ a: Int, _ b: Int) -> Int {
    let (value, overflow) = a.addingReportingOverflow(b)
    return overflow ? .max : value
  }

  /// Adds the counts of the part that follows, whose page and client ids map to these by
  /// `pageMap` and `clientMap`.
  mutating func append(_ next: PanelCounts, pageMap: [Int32], clientMap: [Int32]) {
    for (counts, nextCounts) in [
      (\PanelCounts.pageHits, next.pageHits), (\.pageBytes, next.pageBytes),
      (\.notFound, next.notFound),
    ] {
      for (page, count) in nextCounts.enumerated() where count > 0 {
        Self.add(count, at: pageMap[page], to: &self[keyPath: counts])
      }
    }
    for (client, count) in next.clientHits.enumerated() where count > 0 {
      Self.add(count, at: clientMap[client], to: &clientHits)
    }
    for (client, count) in next.clientBytes.enumerated() where count > 0 {
      Self.add(count, at: clientMap[client], to: &clientBytes)
    }
    for (code, count) in next.statuses.enumerated() { statuses[code] += count }
    for (hour, count) in next.hours.enumerated() { hours[hour] += count }
    days.merge(next.days, uniquingKeysWith: +)
    let referrerMap = referrers.intern(contentsOf: next.referrers)
    for (referrer, count) in next.referrerHits.enumerated() where count > 0 {
      Self.add(count, at: referrerMap[referrer], to: &referrerHits)
    }
    bytes = Self.sum(bytes, next.bytes)
  }
}
