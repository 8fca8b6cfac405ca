import Foundation
import LogAnalysisTestSupport
import Testing

@testable import LogAnalysis

/// The panels (`AnalysisOptions.panels`) against an obvious implementation, in every format,
/// through chunks, partial files and merges.
@Suite struct PanelTests {
  /// `visits` with sizes (some `-`), referers (some none) and zones drawn from `seed`.
  static func withPanelFields(_ visits: [Visit], seed: UInt64) -> [Visit] {
    var generator = SplitMix(seed: seed)
    let referers = [
      "https://www.google.com/search?q=a", "http://Example.org:8080/links", "https://t.co/x",
      "android-app://com.google.android.gm/", "http://www.example.com/a", "https://u@news.site/",
    ]
    let zones = [0, -240, 330, 60]
    let zone = zones[Int(generator.next() % UInt64(zones.count))]
    return visits.map { visit in
      var visit = visit
      visit.size = generator.next() % 7 == 0 ? nil : Int(generator.next() % 40_000)
      visit.referer =
        generator.next() % 3 == 0 ? nil : referers[Int(generator.next() % UInt64(referers.count))]
      visit.zone = zone
      return visit
    }
  }

  /// Each panel as `name:count` (`name:count:bytes` where it counts bytes), in its order.
  static func described(_ report: PanelReport) -> [String: [String]] {
    func rows(_ rows: [PanelRow]) -> [String] {
      rows.map { "\($0.name):\($0.count)" + ($0.bytes.map { ":\($0)" } ?? "") }
    }
    return [
      "pages": rows(report.pages), "statuses": rows(report.statuses),
      "classes": rows(report.statusClasses), "notFound": rows(report.notFound),
      "sites": rows(report.referringSites), "referrers": rows(report.referrers),
      "hours": rows(report.hours), "days": rows(report.days),
      "bandwidth": rows(report.bandwidth), "clients": rows(report.clients),
      "totals": ["\(report.visits) \(report.bytes)"],
    ]
  }

  @Test(arguments: 0..<12)
  func everyPanelInEveryFormatIsTheReferences(seed: Int) throws {
    var generator = SplitMix(seed: UInt64(seed) &+ 101)
    let drawnVisits = Self.withPanelFields(
      randomVisits(seed: UInt64(seed), count: 50 + Int(generator.next() % 400)),
      seed: UInt64(seed))
    var drawn = randomOptions(&generator)
    drawn.panels = seed % 3 == 0 ? .all : Panels(rawValue: Int(generator.next() % 128))
    let top = seed % 2 == 0 ? 0 : 3
    for written in FormatTests.formats {
      let (name, format) = (written.name, written.format)
      var (visits, options) = (drawnVisits, drawn)
      written.adapt(&visits, &options)
      let expected = PanelReference.report(visits, options, top: top, zoned: written.zoned)
      let text = written.write(visits)
      for chunks in [1, 3, 8] {
        let partial = analyze(text, options: options, format: format, chunks: chunks)
        let got = Self.described(partial.panels(top: top))
        for key in expected.keys.sorted() where got[key] != expected[key] {
          Issue.record(
            "\(name), \(chunks) chunks, \(key): \(got[key] ?? []) != \(expected[key] ?? [])")
        }
      }
      // Two parts analysed apart, written, read back and merged.
      let cut = Int(generator.next() % UInt64(visits.count))
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      let header = name == "w3c" ? 4 : 0
      let first = lines[..<(header + cut)].joined(separator: "\n") + "\n"
      let second = (lines[..<header] + lines[(header + cut)...]).joined(separator: "\n")
      var merged = try Partial(
        serialized: analyze(first, options: options, format: format).serialized())
      merged.append(
        try Partial(serialized: analyze(second, options: options, format: format).serialized()))
      #expect(Self.described(merged.panels(top: top)) == expected, "\(name) merged at \(cut)")
    }
  }

  @Test func panelNamesReadAndNameAll() throws {
    #expect(try Panels(names: "pages, Status,not-found") == [.pages, .status, .notFound])
    #expect(try Panels(names: "all") == .all)
    #expect(Panels.all.names.count == 7)
    #expect(throws: AnalysisOptionError.self) { try Panels(names: "pages,visitors") }
    #expect(throws: AnalysisOptionError.self) { try Panels(names: "") }
  }

  @Test func optionsWrittenBeforePanelsReadWithoutThem() throws {
    let old =
      #"{"client":"ip","excludeStatic":false,"filters":{"botPatterns":[],"excludeBots":false,"excludedAddresses":[]},"length":3,"stripQuery":false,"uniqueClients":false}"#
    let options = try JSONDecoder().decode(AnalysisOptions.self, from: Data(old.utf8))
    #expect(options == AnalysisOptions())
    var panels = AnalysisOptions()
    panels.panels = [.hours, .clients]
    let again = try JSONDecoder().decode(
      AnalysisOptions.self, from: try JSONEncoder().encode(panels))
    #expect(again == panels)
  }

  @Test func aSiteIsTheReferersHost() {
    #expect(PanelReport.site(of: "https://www.Google.com/search?q=a") == "google.com")
    #expect(PanelReport.site(of: "http://u:p@example.org:8080/x") == "example.org")
    #expect(PanelReport.site(of: "http://[2001:db8::1]:80/") == "[2001:db8::1]:80")
    #expect(PanelReport.site(of: "android-app://com.google.android.gm/") == "com.google.android.gm")
    #expect(PanelReport.site(of: "not a url") == "not a url")
    #expect(PanelReport.date(day: 0) == "1970-01-01")
    #expect(PanelReport.date(day: -1) == "1969-12-31")
    #expect(PanelReport.date(day: 19_844) == "2024-05-01")
  }

  @Test func panelTablesThatSayMoreThanTheLinesAreRefused() throws {
    var options = AnalysisOptions()
    options.panels = .all
    var partial = analyze(log([("a", "/1"), ("a", "/2")]), options: options)
    partial.panels.pageHits[0] = 5
    #expect {
      try Partial(serialized: partial.serialized())
    } throws: { error in
      "\(error)" == "the pages panel is out of range"
    }
    for day in [0, Int64.min] {
      // A day more, or the day of the visits moved out of any time a log can say.
      partial = analyze(log([("a", "/1"), ("a", "/2")]), options: options)
      if day == 0 {
        partial.panels.days[0] = 1
      } else {
        partial.panels.days = [day: partial.panels.days.values.reduce(0, +)]
      }
      #expect {
        try Partial(serialized: partial.serialized())
      } throws: { error in
        "\(error)" == "the days panel is out of range"
      }
    }
  }
}

/// The obvious implementation of the panels: each kept visit counted by its fields.
enum PanelReference {
  static func report(_ visits: [Visit], _ options: AnalysisOptions, top: Int, zoned: Bool)
    -> [String: [String]]
  {
    let panels = options.panels
    let kept = visits.filter { Reference.keeps($0, options) }
    var pages: [String: Int] = [:]
    var pageBytes: [String: Int] = [:]
    var notFound: [String: Int] = [:]
    var statuses: [String: Int] = [:]
    var classes: [Int: Int] = [:]
    var referrers: [String: Int] = [:]
    var sites: [String: Int] = [:]
    var hours = [Int](repeating: 0, count: 24)
    var days: [String: Int] = [:]
    var clients: [String: (Int, Int)] = [:]
    var bytes = 0
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    for visit in kept {
      let page = options.stripQuery ? visit.page : visit.target
      let size = visit.size ?? 0
      pages[page, default: 0] += 1
      pageBytes[page, default: 0] += size
      bytes += size
      if visit.status == 404 { notFound[page, default: 0] += 1 }
      statuses[String(visit.status), default: 0] += 1
      classes[visit.status / 100, default: 0] += 1
      if let referer = visit.referer {
        referrers[referer, default: 0] += 1
        sites[site(referer), default: 0] += 1
      }
      let local = visit.time + (zoned ? Int64(visit.zone * 60) : 0)
      hours[Int(local % 86_400 / 3600)] += 1
      days[formatter.string(from: Date(timeIntervalSince1970: TimeInterval(local))), default: 0] +=
        1
      let client =
        options.client == .address ? visit.address : "\(visit.address) \(visit.agent)"
      clients[client, default: (0, 0)].0 += 1
      clients[client, default: (0, 0)].1 += size
    }
    func ranked(_ counts: [String: Int], top: Int) -> [(String, Int)] {
      let sorted = counts.filter { $0.value > 0 }.sorted {
        $0.value != $1.value
          ? $0.value > $1.value : Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8))
      }.map { ($0.key, $0.value) }
      return top > 0 ? Array(sorted.prefix(top)) : sorted
    }
    func rows(_ counts: [String: Int], top: Int) -> [String] {
      ranked(counts, top: top).map { "\($0.0):\($0.1)" }
    }
    let pageHitsCounted = !panels.isDisjoint(with: [.pages, .bandwidth])
    return [
      "pages": panels.contains(.pages) ? rows(pages, top: top) : [],
      "statuses": panels.contains(.status) ? rows(statuses, top: 0) : [],
      "classes": panels.contains(.status)
        ? classes.keys.sorted().map { "\($0)xx:\(classes[$0]!)" } : [],
      "notFound": panels.contains(.notFound) ? rows(notFound, top: top) : [],
      "sites": panels.contains(.referrers) ? rows(sites, top: top) : [],
      "referrers": panels.contains(.referrers) ? rows(referrers, top: top) : [],
      "hours": panels.contains(.hours)
        ? hours.enumerated().map { String(format: "%02d:%d", $0.offset, $0.element) } : [],
      "days": panels.contains(.hours) ? days.keys.sorted().map { "\($0):\(days[$0]!)" } : [],
      "bandwidth": panels.contains(.bandwidth)
        ? ranked(pageBytes, top: top).map {
          "\($0.0):\(pageHitsCounted ? pages[$0.0]! : 0):\($0.1)"
        } : [],
      "clients": panels.contains(.clients)
        ? ranked(clients.mapValues(\.0), top: top).map {
          "\($0.0):\($0.1):\(clients[$0.0]!.1)"
        } : [],
      "totals": ["\(kept.count) \(panels.contains(.bandwidth) ? bytes : 0)"],
    ]
  }

  /// The host of a URL, lower case, without user, port or `www.`.
  static func site(_ referer: String) -> String {
    guard let scheme = referer.range(of: "://") else { return referer }
    var host = String(referer[scheme.upperBound...].prefix { $0 != "/" })
    if let at = host.firstIndex(of: "@") { host = String(host[host.index(after: at)...]) }
    host = String(host.prefix { $0 != ":" }).lowercased()
    return host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
  }
}
