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
  /// Per client of the visits that named no page (its id in `Partial.pagelessClients`): those
  /// visits and their bytes (`clients`).
  var pagelessHits: [Int] = []
  var pagelessBytes: [Int] = []
  /// Every visit's bytes (`bandwidth`).
  var bytes = 0

  static let statusCount = 1000
  /// The most bytes one line may say it sent (`SizeField.max`). Sums of bytes stop at
  /// `Int.max` rather than overflow.
  static let maxSize = SizeField.max

  init(panels: Panels = []) {
    if panels.contains(.status) { statuses = Array(repeating: 0, count: Self.statusCount) }
    if panels.contains(.hours) { hours = Array(repeating: 0, count: 24) }
  }

  /// Counts the visits of `batch` (their ids set): each to its page by its client, answered
  /// its status (-1 for none) with its size, from its referer (empty for none), at its local
  /// time (`Int64.min` for none). A panel at a time, in a loop of its own.
  mutating func add(_ batch: VisitBatch, panels: Panels) {
    let count = batch.count
    guard count > 0 else { return }
    let pages = UnsafeBufferPointer(start: batch.pageIDs.baseAddress, count: count)
    let clients = UnsafeBufferPointer(start: batch.clientIDs.baseAddress, count: count)
    let sizes = UnsafeBufferPointer(start: batch.sizes.baseAddress, count: count)
    if panels.countPageHits { Self.addOne(at: pages, to: &pageHits) }
    if panels.contains(.bandwidth) {
      Self.add(sizes, at: pages, to: &pageBytes)
      for size in sizes { bytes = Self.sum(bytes, size) }
    }
    if panels.contains(.status) {
      statuses.withUnsafeMutableBufferPointer { statuses in
        for index in 0..<count where batch.statuses[index] >= 0 {
          statuses[batch.statuses[index]] += 1
        }
      }
    }
    if panels.contains(.notFound) {
      for index in 0..<count where batch.statuses[index] == 404 {
        Self.add(1, at: pages[index], to: &notFound)
      }
    }
    if panels.contains(.hours) {
      // Lines come in time order, nearly: a run of visits of one day is counted once.
      var (runDay, runLength) = (Int64.min, 0)
      for index in 0..<count where batch.localTimes[index] != .min {
        let (day, second) = LogTime.dayAndSecond(batch.localTimes[index])
        hours[Int(second / 3600)] += 1
        if day != runDay {
          if runLength > 0 { days[runDay, default: 0] += runLength }
          (runDay, runLength) = (day, 0)
        }
        runLength += 1
      }
      if runLength > 0 { days[runDay, default: 0] += runLength }
    }
    if panels.contains(.referrers) {
      for index in 0..<count where Self.isReferrer(batch.referers[index]) {
        let referer = batch.referers[index]
        Self.add(1, at: referrers.intern(referer, hash: Hashing.hash(referer)), to: &referrerHits)
      }
    }
    if panels.contains(.clients) {
      Self.addOne(at: clients, to: &clientHits)
      Self.add(sizes, at: clients, to: &clientBytes)
    }
  }

  /// Counts a visit whose request names no page: its status (-1 for none), size, referer and
  /// local time (`Int64.min` for none) in the panels that do not rank pages or clients.
  mutating func addWithoutPage(
    status: Int, size: Int, referer: UnsafeRawBufferPointer, localTime: Int64, panels: Panels
  ) {
    if panels.contains(.bandwidth) { bytes = Self.sum(bytes, size) }
    if panels.contains(.status), status >= 0, status < Self.statusCount { statuses[status] += 1 }
    if panels.contains(.hours), localTime != .min {
      let (day, second) = LogTime.dayAndSecond(localTime)
      hours[Int(second / 3600)] += 1
      days[day, default: 0] += 1
    }
    if panels.contains(.referrers), Self.isReferrer(referer) {
      Self.add(1, at: referrers.intern(referer, hash: Hashing.hash(referer)), to: &referrerHits)
    }
  }

  /// Counts, for the clients panel, visits that named no page: each of `sizes` by the client
  /// beside it in `clients` (ids in `Partial.pagelessClients`).
  mutating func addWithoutPage(clients: [Int32], sizes: [Int]) {
    clients.withUnsafeBufferPointer { clients in
      sizes.withUnsafeBufferPointer { sizes in
        Self.addOne(at: clients, to: &pagelessHits)
        Self.add(sizes, at: clients, to: &pagelessBytes)
      }
    }
  }

  /// Adds 1 at each of `ids` in `counts`, grown to hold them.
  private static func addOne(at ids: UnsafeBufferPointer<Int32>, to counts: inout [Int]) {
    grow(&counts, toHold: Int(ids.max() ?? 0))
    counts.withUnsafeMutableBufferPointer { counts in
      for id in ids { counts[Int(id)] += 1 }
    }
  }

  /// Adds each of `amounts` at the id beside it in `ids`, in `counts` grown to hold them.
  private static func add(
    _ amounts: UnsafeBufferPointer<Int>, at ids: UnsafeBufferPointer<Int32>,
    to counts: inout [Int]
  ) {
    grow(&counts, toHold: Int(ids.max() ?? 0))
    counts.withUnsafeMutableBufferPointer { counts in
      for (id, amount) in zip(ids, amounts) { counts[Int(id)] = sum(counts[Int(id)], amount) }
    }
  }

  /// Grows `counts` (to twice its size at least) to hold index `largest`.
  @inline(__always)
  private static func grow(_ counts: inout [Int], toHold largest: Int) {
    if largest >= counts.count {
      counts.append(
        contentsOf: repeatElement(0, count: max(largest + 1 - counts.count, counts.count)))
    }
  }

  /// Whether a referer field names a referrer: not empty, not `-`.
  static func isReferrer(_ referer: UnsafeRawBufferPointer) -> Bool {
    !referer.isEmpty && !(referer.count == 1 && referer[0] == UInt8(ascii: "-"))
  }

  @inline(__always)
  private static func add(_ amount: Int, at id: Int32, to counts: inout [Int]) {
    grow(&counts, toHold: Int(id))
    counts[Int(id)] = sum(counts[Int(id)], amount)
  }

  /// `a + b`, or `Int.max` when that overflows.
  @inline(__always)
  static func sum(_ a: Int, _ b: Int) -> Int {
    let (value, overflow) = a.addingReportingOverflow(b)
    return overflow ? .max : value
  }

  /// Adds the counts of the part that follows, whose page, client and page-less client ids map
  /// to these by `pageMap`, `clientMap` and `pagelessMap`.
  mutating func append(
    _ next: PanelCounts, pageMap: [Int32], clientMap: [Int32], pagelessMap: [Int32]
  ) {
    for (counts, nextCounts, map) in [
      (\PanelCounts.pageHits, next.pageHits, pageMap), (\.pageBytes, next.pageBytes, pageMap),
      (\.notFound, next.notFound, pageMap), (\.clientHits, next.clientHits, clientMap),
      (\.clientBytes, next.clientBytes, clientMap),
      (\.pagelessHits, next.pagelessHits, pagelessMap),
      (\.pagelessBytes, next.pagelessBytes, pagelessMap),
    ] {
      for (id, count) in nextCounts.enumerated() where count > 0 {
        Self.add(count, at: map[id], to: &self[keyPath: counts])
      }
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
