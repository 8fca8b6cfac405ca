/// One row of a panel: what it counts (a page, a status, an hour, a client…), its visits and,
/// in the panels that count them (bandwidth, clients), its bytes.
public struct PanelRow: Sendable, Equatable {
  public let name: String
  public let count: Int
  public let bytes: Int?

  public init(name: String, count: Int, bytes: Int? = nil) {
    self.name = name
    self.count = count
    self.bytes = bytes
  }
}

/// The panels of an analysis (`AnalysisOptions.panels`), ready to show: those not counted are
/// empty. Ranked panels hold the most visits first (bandwidth: the most bytes), ties in the
/// order of their names' bytes, and at most `top` rows; hours and days are in time order.
public struct PanelReport: Sendable, Equatable {
  public let panels: Panels
  /// The visits counted (lines read and kept), of which every panel's counts are shares.
  public let visits: Int
  /// The bytes of all visits (`bandwidth`).
  public let bytes: Int
  public let pages: [PanelRow]
  /// Per status code (`200`), and per class (`2xx`, in the order of the classes).
  public let statuses: [PanelRow]
  public let statusClasses: [PanelRow]
  public let notFound: [PanelRow]
  /// Per referring site (the referer's host, in lower case, without port or `www.`) and per
  /// referring page (the referer as written).
  public let referringSites: [PanelRow]
  public let referrers: [PanelRow]
  /// `00` to `23`, each hour of the day; each day with visits, `2024-05-01`.
  public let hours: [PanelRow]
  public let days: [PanelRow]
  /// Pages by the bytes sent for them.
  public let bandwidth: [PanelRow]
  public let clients: [PanelRow]

  /// No panels.
  public static let empty = PanelReport(tables: PanelTables(panels: [], visits: 0), top: 0)
}

/// The counts of a result's panels, by id, with the names of the ids: what a `Partial` or a
/// `LayeredResult` gives `PanelReport`.
struct PanelTables {
  var panels: Panels
  var visits: Int
  var bytes = 0
  var pageHits: [Int] = []
  var pageBytes: [Int] = []
  var notFound: [Int] = []
  var pageName: (Int) -> [UInt8] = { _ in [] }
  var statuses: [Int] = []
  var hours: [Int] = []
  var days: [Int64: Int] = [:]
  var referrerHits: [Int] = []
  var referrerName: (Int) -> [UInt8] = { _ in [] }
  var clientHits: [Int] = []
  var clientBytes: [Int] = []
  var clientName: (Int) -> [UInt8] = { _ in [] }
  /// Per client of the visits that named no page: those visits and bytes, its name, and the
  /// client id of that name (-1 for none).
  var pagelessHits: [Int] = []
  var pagelessBytes: [Int] = []
  var pagelessName: (Int) -> [UInt8] = { _ in [] }
  var pagelessOwners: [Int32] = []
}

extension PanelReport {
  init(tables: PanelTables, top: Int) {
    panels = tables.panels
    visits = tables.visits
    bytes = tables.bytes
    let text = { (bytes: [UInt8]) in String(decoding: bytes, as: UTF8.self) }
    // Visits per page are counted for bandwidth too, and shown as a panel for `pages` only.
    pages =
      tables.panels.contains(.pages)
      ? Self.ranked(tables.pageHits, top: top, name: tables.pageName).map {
        PanelRow(name: text($0.name), count: $0.count)
      } : []
    notFound = Self.ranked(tables.notFound, top: top, name: tables.pageName).map {
      PanelRow(name: text($0.name), count: $0.count)
    }
    bandwidth = Self.ranked(tables.pageBytes, top: top, name: tables.pageName).map {
      PanelRow(
        name: text($0.name), count: $0.id < tables.pageHits.count ? tables.pageHits[$0.id] : 0,
        bytes: $0.count)
    }
    clients = Self.clients(tables, top: top)
    statuses = Self.ranked(tables.statuses, top: 0) { Array(String($0).utf8) }.map {
      PanelRow(name: text($0.name), count: $0.count)
    }
    var classes = [Int](repeating: 0, count: 10)
    for (code, count) in tables.statuses.enumerated() { classes[code / 100] += count }
    statusClasses = classes.enumerated().filter { $0.element > 0 }.map {
      PanelRow(name: "\($0.offset)xx", count: $0.element)
    }
    referrers = Self.ranked(tables.referrerHits, top: top, name: tables.referrerName).map {
      PanelRow(name: text($0.name), count: $0.count)
    }
    var sites: [String: Int] = [:]
    for (referrer, count) in tables.referrerHits.enumerated() where count > 0 {
      sites[Self.site(of: text(tables.referrerName(referrer))), default: 0] += count
    }
    let siteNames = Array(sites.keys)
    referringSites = Self.ranked(siteNames.map { sites[$0]! }, top: top) {
      Array(siteNames[$0].utf8)
    }.map { PanelRow(name: text($0.name), count: $0.count) }
    hours = tables.hours.enumerated().map {
      PanelRow(name: $0.offset < 10 ? "0\($0.offset)" : "\($0.offset)", count: $0.element)
    }
    days = tables.days.sorted { $0.key < $1.key }.map {
      PanelRow(name: Self.date(day: $0.key), count: $0.value)
    }
  }

  /// The clients panel: each client's visits and bytes, with those of its visits that named no
  /// page; a client with no other visit in a row of its own.
  private static func clients(_ tables: PanelTables, top: Int) -> [PanelRow] {
    var (hits, bytes) = (tables.clientHits, tables.clientBytes)
    let known = max(hits.count, bytes.count, Int(tables.pagelessOwners.max() ?? -1) + 1)
    hits += repeatElement(0, count: known - hits.count)
    bytes += repeatElement(0, count: known - bytes.count)
    // The pageless ids of the rows after the clients'.
    var own: [Int] = []
    for (id, count) in tables.pagelessHits.enumerated() where count > 0 {
      let size = id < tables.pagelessBytes.count ? tables.pagelessBytes[id] : 0
      let owner = id < tables.pagelessOwners.count ? Int(tables.pagelessOwners[id]) : -1
      if owner >= 0 {
        hits[owner] = PanelCounts.sum(hits[owner], count)
        bytes[owner] = PanelCounts.sum(bytes[owner], size)
      } else {
        own.append(id)
        hits.append(count)
        bytes.append(size)
      }
    }
    let name = { (id: Int) in
      id < known ? tables.clientName(id) : tables.pagelessName(own[id - known])
    }
    return ranked(hits, top: top, name: name).map {
      PanelRow(name: String(decoding: $0.name, as: UTF8.self), count: $0.count, bytes: bytes[$0.id])
    }
  }

  /// The ids whose counts are not 0, the highest first, ties by their names' bytes; the first
  /// `top` (all for 0).
  static func ranked(_ counts: [Int], top: Int, name: (Int) -> [UInt8]) -> [(
    id: Int, name: [UInt8], count: Int
  )] {
    var ids = counts.indices.filter { counts[$0] > 0 }
    if top > 0 && ids.count > top {
      // Only those at least as high as the `top`-th highest can be among the first `top`.
      var values = ids.map { counts[$0] }
      let least = selected(&values, rank: top - 1)
      ids = ids.filter { counts[$0] >= least }
    }
    let rows = ids.map { (id: $0, name: name($0), count: counts[$0]) }.sorted {
      $0.count != $1.count ? $0.count > $1.count : $0.name.lexicographicallyPrecedes($1.name)
    }
    return top > 0 ? Array(rows.prefix(top)) : rows
  }

  /// The value that would be at `rank` (0 for the highest) were `values` sorted from the
  /// highest; `values` are reordered (Hoare's selection).
  private static func selected(_ values: inout [Int], rank: Int) -> Int {
    var (low, high) = (0, values.count - 1)
    while low < high {
      let pivot = values[(low + high) / 2]
      var (left, right) = (low, high)
      while left <= right {
        while values[left] > pivot { left += 1 }
        while values[right] < pivot { right -= 1 }
        if left <= right {
          values.swapAt(left, right)
          left += 1
          right -= 1
        }
      }
      if rank <= right {
        high = right
      } else if rank >= left {
        low = left
      } else {
        return values[rank]
      }
    }
    return values[rank]
  }

  /// The site of a referer: its host, in lower case, without a port or a leading `www.`;
  /// the referer itself when it names none.
  static func site(of referer: String) -> String {
    guard let scheme = referer.range(of: "://") else { return referer }
    var host = referer[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
    if !host.hasPrefix("["), let colon = host.firstIndex(of: ":") { host = host[..<colon] }
    var site = host.lowercased()
    if site.hasPrefix("www.") { site.removeFirst(4) }
    return site.isEmpty ? referer : site
  }

  /// `2024-05-01` for days since 1970 (Howard Hinnant's `civil_from_days`).
  static func date(day: Int64) -> String {
    let z = day + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shifted = (5 * dayOfYear + 2) / 153
    let dayOfMonth = dayOfYear - (153 * shifted + 2) / 5 + 1
    let month = shifted < 10 ? shifted + 3 : shifted - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let digits = String(abs(year))
    let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    return "\(year < 0 ? "-" : "")\(padded)-\(two(month))-\(two(dayOfMonth))"
  }
}

extension PanelTables {
  /// The tables of `counts`, whose page and client ids `pageName` and `clientName` name, and
  /// whose page-less clients are those of `pageless`, of the client ids `pagelessOwners`.
  init(
    _ counts: PanelCounts, panels: Panels, visits: Int, pageName: @escaping (Int) -> [UInt8],
    clientName: @escaping (Int) -> [UInt8], pageless: Interner, pagelessOwners: [Int32]
  ) {
    self.init(panels: panels, visits: visits)
    bytes = counts.bytes
    pageHits = counts.pageHits
    pageBytes = counts.pageBytes
    notFound = counts.notFound
    self.pageName = pageName
    statuses = counts.statuses
    hours = counts.hours
    days = counts.days
    referrerHits = counts.referrerHits
    referrerName = { Array(counts.referrers.bytes(Int32($0))) }
    clientHits = counts.clientHits
    clientBytes = counts.clientBytes
    self.clientName = clientName
    pagelessHits = counts.pagelessHits
    pagelessBytes = counts.pagelessBytes
    pagelessName = { Array(pageless.bytes(Int32($0))) }
    self.pagelessOwners = pagelessOwners
  }
}

extension Partial {
  /// The panels counted (`options.panels`), each ranked, `top` rows at most (0 for all).
  public func panels(top: Int) -> PanelReport {
    let (pages, clients) = (self.pages, self.clients.names)
    let tables = PanelTables(
      panels, panels: options.panels, visits: lines - malformedLines - filteredLines,
      pageName: { Array(pages.bytes(Int32($0))) }, clientName: { Array(clients.bytes(Int32($0))) },
      pageless: pagelessClients,
      pagelessOwners: panels.pagelessHits.isEmpty ? [] : pagelessClients.ids(in: clients))
    return PanelReport(tables: tables, top: top)
  }
}
