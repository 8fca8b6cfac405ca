import Foundation
import LogAnalysis
import StyleGuide

/// The result screen of a log analysis: the ranked sequences and the summary.
public struct AnalysisScreen: Equatable, Sendable {
  /// One ranked sequence.
  public struct Row: Equatable, Sendable {
    public var rank: Int
    public var count: Int
    /// Of all occurrences, or of all clients when counting clients.
    public var share: Double
    public var pages: [String]

    /// "12.34%"
    public var shareText: String { AnalysisScreen.percent(share) }

    /// "a → b → c", each page `printable`.
    public var sequenceText: String { pages.map(\.printable).joined(separator: " → ") }
  }

  public var rows: [Row]
  /// What the rows rank: sequences (nil), or the entry or exit pages of paths.
  public var pathEnd: PathEnd?
  /// Pages per row: the sequence length, or 1 for entry and exit pages.
  public var length: Int
  public var countsClients: Bool
  public var lines: Int
  public var malformedLines: Int
  /// Lines left out by the filters.
  public var filteredLines: Int
  /// `#` lines passed over (in a log that is not W3C).
  public var commentLines: Int
  /// Visits whose request names no page (nginx's `-`, a scanner's junk): in the panels, not
  /// in the sequences.
  public var unreadableRequests = 0
  /// The format's name (`combined`, `json`, …); nil when not known (merged partials).
  public var format: String?
  /// Every client of the visits, `clientsWithoutPage` of them with no page.
  public var clients: Int
  /// The clients whose every visit named no page (a scanner's, a health check's).
  public var clientsWithoutPage = 0
  public var distinctSequences: Int
  /// The panels counted (`--panels`), in the order they are shown; empty without.
  public var panels: [PanelSection] = []
  /// The bytes of all visits, with the bandwidth panel.
  public var bytes: Int?
  /// How far the paths went through the funnel (`--funnel`); nil without one.
  public var funnel: FunnelReport?

  /// The screen of a partial result, as `init(_:top:ranking:)` of any analysis (the
  /// initializer of 3.0).
  public init(_ partial: Partial, top: Int, ranking pathEnd: PathEnd? = nil) {
    self.init(of: partial, top: top, ranking: pathEnd)
  }

  /// The screen for the `top` sequences of `analysis` (0 for all), or with `pathEnd`, its top
  /// entry or exit pages, as shares of all paths.
  public init(_ analysis: some RankedAnalysis, top: Int, ranking pathEnd: PathEnd? = nil) {
    self.init(of: analysis, top: top, ranking: pathEnd)
  }

  /// The screen of `analysis` with no rows, panels or funnel: what its summary says, without
  /// the cost of a ranking (for a run that prints only the summary).
  public init(summaryOf analysis: some RankedAnalysis) {
    self.init(of: analysis, top: 0, ranking: nil, rows: false, panels: false)
  }

  /// With `rows` false, nothing is ranked; with `panels` false, the panels are left out (a
  /// report that ranks several ways counts them once).
  init(
    of analysis: some RankedAnalysis, top: Int, ranking pathEnd: PathEnd?, rows ranks: Bool = true,
    panels: Bool = true
  ) {
    let total = pathEnd == nil ? analysis.total : analysis.pathCount
    let ranked: [RankedSequence] =
      if !ranks {
        []
      } else if let pathEnd {
        analysis.ranking(of: pathEnd, top: top)
      } else {
        analysis.ranking(top: top)
      }
    rows = ranked.enumerated().map { index, sequence in
      Row(
        rank: index + 1, count: sequence.count,
        share: total > 0 ? Double(sequence.count) / Double(total) : 0,
        pages: sequence.pageTexts)
    }
    self.pathEnd = pathEnd
    length = pathEnd == nil ? analysis.options.length : 1
    countsClients = pathEnd == nil && analysis.options.uniqueClients
    lines = analysis.lines
    malformedLines = analysis.malformedLines
    filteredLines = analysis.filteredLines
    commentLines = analysis.commentLines
    unreadableRequests = analysis.unreadableRequests
    format = analysis.formatName
    clientsWithoutPage = analysis.clientsWithoutPage
    clients = analysis.clientCount + clientsWithoutPage
    distinctSequences = analysis.distinctSequences
    guard panels else { return }
    funnel = analysis.funnel()
    let report = analysis.panels(top: top)
    self.panels = report.sections
    bytes = report.panels.contains(.bandwidth) ? report.bytes : nil
  }

  /// The lines that were visits: neither malformed nor left out by a filter.
  public var visits: Int { lines - malformedLines - filteredLines }

  /// "N lines (combined), V visits, U with an unreadable request, M malformed, F left out by
  /// filters, K comment lines passed over, C clients (P with no page), S distinct sequences in
  /// T s (R MB/s)"; the format when known, the unreadable, filtered, comment and pageless
  /// counts when not zero, each noun in the singular for one.
  public func summary(bytes: Int, elapsed: Duration) -> String {
    summary(elapsed: elapsed)
      + String(format: " (%.0f MB/s)", Double(bytes) / Self.seconds(elapsed) / 1e6)
  }

  /// The summary without the rate: for a watch (`--follow`), whose time is mostly waiting.
  public func summary(elapsed: Duration) -> String {
    func counted(_ count: Int, _ noun: String) -> String {
      "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
    var counts = counted(lines, "line") + (format.map { " (\($0))" } ?? "")
    counts += ", \(counted(visits, "visit")), "
    if unreadableRequests > 0 { counts += "\(unreadableRequests) with an unreadable request, " }
    counts += "\(malformedLines) malformed, "
    if filteredLines > 0 { counts += "\(filteredLines) left out by filters, " }
    if commentLines > 0 {
      counts += "\(commentLines) comment \(commentLines == 1 ? "line" : "lines") passed over, "
    }
    counts += counted(clients, "client")
    if clientsWithoutPage > 0 { counts += " (\(clientsWithoutPage) with no page)" }
    return counts + ", "
      + counted(distinctSequences, "distinct sequence")
      + String(format: " in %.2f s", Self.seconds(elapsed))
  }

  private static func seconds(_ elapsed: Duration) -> Double {
    max(1e-9, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
  }
}
