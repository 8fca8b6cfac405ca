/// The panels' tables in a partial file (format 9), after the index, where they lie: per page
/// id, per status, per hour, per day, the referrers, and per client (in the order the file
/// writes its clients); at the file's end, per client of the visits that named no page (format
/// 13, in the order of their names). Empty for panels not counted.
struct PanelSections {
  var pageHits = WordView<Int>()
  var pageBytes = WordView<Int>()
  var notFound = WordView<Int>()
  var statuses = WordView<Int>()
  var hours = WordView<Int>()
  /// Day and count, in the order of the days.
  var days = WordView<Int>()
  var referrerEnds = WordView<Int>()
  var referrerNames = WordView<UInt8>()
  var referrerHits = WordView<Int>()
  var clientHits = WordView<Int>()
  var clientBytes = WordView<Int>()
  var pagelessHits = WordView<Int>()
  var pagelessBytes = WordView<Int>()
  /// The bytes of all visits, with `bandwidth`; else empty.
  var bytes = WordView<Int>()

  init() {}

  init(reading input: inout ByteReader) throws {
    pageHits = try input.view(of: Int.self)
    pageBytes = try input.view(of: Int.self)
    notFound = try input.view(of: Int.self)
    statuses = try input.view(of: Int.self)
    hours = try input.view(of: Int.self)
    days = try input.view(of: Int.self)
    referrerEnds = try input.view(of: Int.self)
    referrerNames = try input.view(of: UInt8.self)
    referrerHits = try input.view(of: Int.self)
    clientHits = try input.view(of: Int.self)
    clientBytes = try input.view(of: Int.self)
    bytes = try input.view(of: Int.self)
  }
}

extension ByteWriter {
  /// Writes what `PanelSections` reads, of `counts` of `panels` of `pageCount` pages and
  /// `clientCount` clients; the clients' tables in `clientOrder` when given.
  mutating func panels(
    _ counts: PanelCounts, of panels: Panels, pageCount: Int, clientCount: Int,
    clientOrder: [Int32]?
  ) {
    // The tables grow ahead of the ids; the rest is 0.
    array(Array(counts.pageHits.prefix(pageCount)))
    array(Array(counts.pageBytes.prefix(pageCount)))
    array(Array(counts.notFound.prefix(pageCount)))
    array(counts.statuses)
    array(counts.hours)
    array(counts.days.sorted { $0.key < $1.key }.flatMap { [Int($0.key), $0.value] })
    let referrers = counts.referrers.storage
    array(referrers.ends)
    array(referrers.arena)
    array(Array(counts.referrerHits.prefix(counts.referrers.count)))
    for table in [counts.clientHits, counts.clientBytes] {
      array(
        clientOrder.map { order in
          table.isEmpty ? [] : order.map { Int($0) < table.count ? table[Int($0)] : 0 }
        } ?? Array(table.prefix(clientCount)))
    }
    array(panels.contains(.bandwidth) ? [counts.bytes] : [])
  }
}

extension PanelCounts {
  /// The counts `sections` hold, checked: tables of the panels `options` count (and only
  /// those), ids in range, and no count of visits beyond `visits` (of visits that named no
  /// page, beyond `pageless.visits` of `pageless.clients` clients).
  init(
    _ sections: PanelSections, options: AnalysisOptions, pageCount: Int, clientCount: Int,
    visits: Int, pageless: (clients: Int, visits: Int)
  ) throws(PartialFileError) {
    let panels = options.panels
    let fail = { (what: String) in
      PartialFileError(description: "the \(what) panel is out of range")
    }
    func hits(
      _ view: WordView<Int>, upTo limit: Int, counted: Bool, _ what: String,
      of visits: Int = visits
    ) throws(PartialFileError) -> [Int] {
      let counts = view.array()
      guard counted || counts.isEmpty, counts.count <= limit else { throw fail(what) }
      var sum = 0
      for count in counts {
        guard count >= 0 else { throw fail(what) }
        sum += min(count, visits + 1)
        guard sum <= visits else { throw fail(what) }
      }
      return counts
    }
    func amounts(_ view: WordView<Int>, upTo limit: Int, counted: Bool, _ what: String)
      throws(PartialFileError) -> [Int]
    {
      let counts = view.array()
      guard counted || counts.isEmpty, counts.count <= limit, counts.allSatisfy({ $0 >= 0 })
      else { throw fail(what) }
      return counts
    }
    self.init()
    pageHits = try hits(sections.pageHits, upTo: pageCount, counted: panels.countPageHits, "pages")
    pageBytes = try amounts(
      sections.pageBytes, upTo: pageCount, counted: panels.contains(.bandwidth), "bandwidth")
    notFound = try hits(
      sections.notFound, upTo: pageCount, counted: panels.contains(.notFound), "not-found")
    statuses = try hits(
      sections.statuses, upTo: Self.statusCount, counted: panels.contains(.status), "status")
    hours = try hits(sections.hours, upTo: 24, counted: panels.contains(.hours), "hours")
    guard statuses.count == (panels.contains(.status) ? Self.statusCount : 0),
      hours.count == (panels.contains(.hours) ? 24 : 0)
    else { throw fail("status or hours") }
    let days = sections.days.array()
    guard days.isEmpty || panels.contains(.hours), days.count % 2 == 0 else { throw fail("days") }
    var sum = 0
    for index in stride(from: 0, to: days.count, by: 2) {
      let (day, count) = (Int64(days[index]), days[index + 1])
      let limit = Partial.timeBounds.upperBound / 86_400 + 1
      sum += min(count, visits + 1)
      guard (-limit...limit).contains(day), count > 0, sum <= visits,
        self.days.updateValue(count, forKey: day) == nil
      else { throw fail("days") }
    }
    referrers = try PartialSections.strings(
      sections.referrerEnds, sections.referrerNames, of: "referrers")
    referrerHits = try hits(
      sections.referrerHits, upTo: referrers.count, counted: panels.contains(.referrers),
      "referrers")
    clientHits = try hits(
      sections.clientHits, upTo: clientCount, counted: panels.contains(.clients), "clients")
    clientBytes = try amounts(
      sections.clientBytes, upTo: clientCount, counted: panels.contains(.clients), "clients")
    pagelessHits = try hits(
      sections.pagelessHits, upTo: pageless.clients, counted: panels.contains(.clients),
      "clients", of: pageless.visits)
    pagelessBytes = try amounts(
      sections.pagelessBytes, upTo: pageless.clients, counted: panels.contains(.clients),
      "clients")
    let total = sections.bytes.array()
    guard total.count == (panels.contains(.bandwidth) ? 1 : 0), total.allSatisfy({ $0 >= 0 })
    else { throw fail("bandwidth") }
    bytes = total.first ?? 0
  }
}
