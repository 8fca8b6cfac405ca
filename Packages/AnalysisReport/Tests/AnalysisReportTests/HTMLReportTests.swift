import Foundation
import Testing

@testable import AnalysisReport

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Collects what a strict XML parser sees of a document: whether it parsed, the elements'
/// attributes, and the text.
final class XMLProbe: NSObject, XMLParserDelegate {
  var elements: [(name: String, attributes: [String: String])] = []
  var text = ""
  var error: (any Error)?

  init(_ document: String) {
    super.init()
    let parser = XMLParser(data: Data(document.utf8))
    parser.delegate = self
    if !parser.parse() { error = parser.parserError ?? CocoaError(.fileReadCorruptFile) }
  }

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    elements.append((name, attributes))
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
}

@Suite struct HTMLReportTests {
  private func data(_ rows: [([String], Int)], total: Int, entries: Bool = false) -> ReportData {
    let converted = rows.map {
      ReportData.Row(pages: $0.0, count: $0.1, share: Double($0.1) / Double(total))
    }
    return ReportData(
      inputs: ["access.log", "b&c.log"], lines: 1000, malformedLines: 2,
      firstMalformedLine: "<garbage> & \u{1}", clients: 40, distinctSequences: 77,
      timeRange: 1_714_557_600...1_714_644_000, options: ["--session-gap", "30m"], length: 3,
      countsClients: false, sequences: converted, flow: converted,
      entries: entries ? [ReportData.Row(pages: ["/"], count: 5, share: 0.5)] : nil,
      exits: entries ? [ReportData.Row(pages: ["/bye"], count: 5, share: 0.5)] : nil)
  }

  @Test func theReportIsWellFormedAndSaysEverything() throws {
    var report = data(
      [(["/", "/a", "/b"], 30), (["/", "/a", "/c"], 20), (["/x", "/a", "/b"], 10)],
      total: 100, entries: true)
    // The log's clock: the first line at +0200, the last at -0700 (a zone changed midway).
    (report.earliestOffset, report.latestOffset) = (7200, -25_200)
    let html = HTMLReport.render(report)
    let probe = XMLProbe(html)
    #expect(probe.error == nil, "\(String(describing: probe.error))")
    for expected in [
      "access.log, b&c.log", "1000", "<garbage> & \u{FFFD}", "2024-05-01 12:00:00 +0200",
      "2024-05-02 03:00:00 -0700", "--session-gap 30m", "30.00%", "Entry pages", "/bye",
    ] {
      #expect(probe.text.contains(expected), "\(expected)")
    }
    #expect(probe.elements.contains { $0.name == "svg" })
    #expect(probe.elements.filter { $0.name == "tr" }.count == 1 + 3 + 2 + 2)
  }

  /// A ranked panel is a table with its bytes; a timeline is a column a row in an SVG, each
  /// with its count in a title, and its numbers in a table below; names are text.
  @Test func panelsAreSectionsOfTablesAndColumns() throws {
    var report = data([(["/", "/a", "/b"], 30)], total: 100)
    report.panels = [
      ReportData.Panel(
        title: "Bandwidth by page", nameHeader: "page",
        rows: [.init(name: "/<big>", count: 3, share: 0.75, bytes: 3000)], sharesBytes: true),
      ReportData.Panel(
        title: "Visits by hour of day", nameHeader: "hour",
        rows: (0..<24).map { .init(name: $0 < 10 ? "0\($0)" : "\($0)", count: $0, share: 0) },
        isTimeline: true),
    ]
    report.bytes = 4000
    let html = HTMLReport.render(report)
    let probe = XMLProbe(html)
    #expect(probe.error == nil, "\(String(describing: probe.error))")
    for expected in [
      "Bandwidth by page", "/<big>", "3000", "Shares of all 4000 bytes sent.", "23: 23",
    ] {
      #expect(probe.text.contains(expected), "\(expected)")
    }
    #expect(
      probe.elements.filter { $0.name == "rect" && $0.attributes["class"] == "column" }.count == 24)
    #expect(probe.elements.filter { $0.name == "tr" }.count == 2 + 2 + 25)
  }

  /// A funnel is a bar a step, as wide as its share of the first step's paths, joined by
  /// bands; what was lost and the median times between; its numbers in a table below.
  @Test func aFunnelIsDrawnAsNarrowingBars() throws {
    var report = data([(["/", "/a", "/b"], 30)], total: 100)
    report.funnel = ReportData.Funnel(
      paths: 12,
      steps: [
        .init(page: "/", paths: 10, share: 1, dropOff: 0, medianTime: nil),
        .init(page: "/products/<*>", paths: 4, share: 0.4, dropOff: 6, medianTime: "1m 05s"),
        .init(page: "/cart", paths: 4, share: 0.4, dropOff: 0, medianTime: "12s"),
      ])
    let probe = XMLProbe(HTMLReport.render(report))
    #expect(probe.error == nil, "\(String(describing: probe.error))")
    for expected in [
      "Of 12 paths", "2. /products/<*>", "4 (40.00%)", "−6 lost, median 1m 05s",
      "none lost, median 12s",
    ] {
      #expect(probe.text.contains(expected), "\(expected)")
    }
    let bars = probe.elements.filter {
      $0.name == "rect" && $0.attributes["class"] == "funnel-step"
    }
    #expect(bars.compactMap { $0.attributes["width"] } == ["340", "136", "136"])
    #expect(probe.elements.filter { $0.name == "polygon" }.count == 2)
    #expect(probe.elements.filter { $0.name == "tr" }.count == 2 + 4)
  }

  @Test func pageNamesAreTextNeverMarkup() {
    let evil = "/<script>alert(1)</script>"
    let html = HTMLReport.render(data([([evil, "/\"q'", "/a&b"], 5)], total: 5))
    let probe = XMLProbe(html)
    #expect(probe.error == nil)
    #expect(!probe.elements.contains { $0.name == "script" })
    #expect(probe.text.contains(evil))
    #expect(!html.contains("<script"))
  }

  @Test func nothingIsFetchedWhenOpened() {
    let html = HTMLReport.render(data([(["http://evil.example/x.png", "/a", "/b"], 5)], total: 5))
    let probe = XMLProbe(html)
    for element in probe.elements {
      for (name, value) in element.attributes where ["src", "href", "xlink:href"].contains(name) {
        Issue.record("\(element.name) has \(name)=\(value)")
      }
    }
    #expect(!html.contains("url("))
    #expect(!html.contains("@import"))
  }

  @Test func linkWidthsAreProportionalToCounts() throws {
    let html = HTMLReport.render(
      data(
        [(["/", "/a", "/b"], 40), (["/", "/c", "/b"], 10), (["/d", "/a", "/e"], 5)], total: 55))
    let links = XMLProbe(html).elements.filter { $0.attributes["class"] == "link" }
    // Step 1 → 2 has three pairs, step 2 → 3 three more.
    #expect(links.count == 6)
    let ratios = try links.map { link -> Double in
      let width = try #require(Double(link.attributes["stroke-width"] ?? ""))
      let count = try #require(Double(link.attributes["data-count"] ?? ""))
      return width / count
    }
    for ratio in ratios { #expect(abs(ratio - ratios[0]) < 0.01) }
    #expect(links.contains { $0.attributes["aria-label"] == "/ → /a: 40 (72.73%)" })
  }

  @Test func longNamesAreShortInThePictureAndWholeInTheTooltip() {
    let long = "/" + String(repeating: "very-long-segment/", count: 10)
    let html = HTMLReport.render(data([([long, "/a", "/b"], 5)], total: 5))
    let probe = XMLProbe(html)
    #expect(probe.error == nil)
    #expect(probe.text.contains(long + ": 5"))
    #expect(probe.text.contains("…"))
  }
}
