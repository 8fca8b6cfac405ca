/// The analysis as `analyze --json` prints it: the counts of the log and the ranked
/// sequences (or entry or exit pages), each with its rank, count, share and pages.
public struct AnalysisResult: Codable, Equatable, Sendable {
  public struct Sequence: Codable, Equatable, Sendable {
    public var rank: Int
    public var count: Int
    /// The share of all counted sequences, 0 to 1.
    public var share: Double
    public var pages: [String]
  }

  public var length: Int
  /// What the counts count: "occurrences", "clients", "entry pages" or "exit pages".
  public var counting: String
  /// The format the lines were read in; nil when not known.
  public var format: String?
  public var lines: Int
  public var visits: Int
  public var malformedLines: Int
  /// Lines left out by the filters.
  public var filteredLines: Int
  /// `#` lines passed over.
  public var commentLines: Int
  /// Visits whose request names no page (nginx's `-`, a scanner's junk); absent in the JSON
  /// of versions before it.
  public var unreadableRequests: Int?
  /// Every client of the visits.
  public var clients: Int
  /// The clients whose every visit named no page; absent in the JSON of versions before it.
  public var clientsWithoutPage: Int?
  public var distinctSequences: Int
  public var sequences: [Sequence]

  /// One row of a panel; `rank` in ranked panels, `bytes` in those that count them.
  public struct PanelEntry: Codable, Equatable, Sendable {
    public var rank: Int?
    public var name: String
    public var count: Int
    /// Of all visits (of all bytes, in `bandwidth`), 0 to 1.
    public var share: Double
    public var bytes: Int?
  }

  /// With `--panels`: each panel's rows by its key (`pages`, `status`, `hours`…).
  public var panels: [String: [PanelEntry]]?
  /// With the bandwidth panel: the bytes of all visits.
  public var bytes: Int?

  /// One step of the funnel.
  public struct FunnelStep: Codable, Equatable, Sendable {
    /// 1 for the first.
    public var step: Int
    /// The step's page or glob.
    public var page: String
    /// Paths that reached it, after the steps before.
    public var paths: Int
    /// Of the paths that reached the first step, 0 to 1.
    public var share: Double
    /// Paths that reached the step before but not this one.
    public var dropOff: Int
    /// The median of the seconds from the step before; absent for the first step, or when
    /// no path reached this one.
    public var medianSeconds: Double?
  }

  /// The funnel: all the paths, and the steps.
  public struct Funnel: Codable, Equatable, Sendable {
    public var paths: Int
    public var steps: [FunnelStep]
  }

  /// With `--funnel`: how far the paths went through it.
  public var funnel: Funnel?

  public init(_ screen: AnalysisScreen) {
    length = screen.length
    counting =
      screen.pathEnd.map { "\($0.rawValue) pages" }
      ?? (screen.countsClients ? "clients" : "occurrences")
    format = screen.format
    lines = screen.lines
    visits = screen.visits
    malformedLines = screen.malformedLines
    filteredLines = screen.filteredLines
    commentLines = screen.commentLines
    unreadableRequests = screen.unreadableRequests
    clients = screen.clients
    clientsWithoutPage = screen.clientsWithoutPage
    distinctSequences = screen.distinctSequences
    sequences = screen.rows.map {
      Sequence(rank: $0.rank, count: $0.count, share: $0.share, pages: $0.pages)
    }
    if !screen.panels.isEmpty {
      panels = Dictionary(
        uniqueKeysWithValues: screen.panels.map { panel in
          (
            panel.key,
            panel.rows.enumerated().map { index, row in
              PanelEntry(
                rank: panel.isTimeline ? nil : index + 1, name: row.name, count: row.count,
                share: row.share, bytes: row.bytes)
            }
          )
        })
    }
    bytes = screen.bytes
    funnel = screen.funnel.map { funnel in
      Funnel(
        paths: funnel.paths,
        steps: funnel.steps.enumerated().map { index, step in
          FunnelStep(
            step: index + 1, page: step.glob, paths: step.paths,
            share: AnalysisScreen.funnelShare(step, of: funnel), dropOff: step.dropOff,
            medianSeconds: step.medianSeconds)
        })
    }
  }
}
