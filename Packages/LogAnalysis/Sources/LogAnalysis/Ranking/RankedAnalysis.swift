/// What the screens and reports show of an analysis: the counts of the log and its rankings.
/// A `Partial` is one; a `LayeredResult` gives the same numbers for lines read before (and
/// left on disk) followed by new ones, and a `JoinedResult` for partial results left on disk.
public protocol RankedAnalysis: Sendable {
  var options: AnalysisOptions { get }
  var lines: Int { get }
  var malformedLines: Int { get }
  /// Lines that read but were left out by the options' filters.
  var filteredLines: Int { get }
  /// `#` lines of a log that is not W3C, passed over.
  var commentLines: Int { get }
  /// Lines that read but whose request names no page (see `Partial.unreadableRequests`).
  var unreadableRequests: Int { get }
  /// The format the lines were read in; nil when not known.
  var formatName: String? { get }
  /// The first malformed line (its first 200 bytes), invalid UTF-8 replaced.
  var firstMalformedLine: String? { get }
  /// The first and last times of the visits counted, when times were read.
  var timeRange: ClosedRange<Int64>? { get }
  /// The offsets from UTC the first and last times were written in.
  var timeRangeOffsets: TimeRangeOffsets { get }
  /// The clients that visited a page.
  var clientCount: Int { get }
  /// The clients whose every visit named no page: with `clientCount`, every client.
  var clientsWithoutPage: Int { get }
  var distinctSequences: Int { get }
  /// What the counts are shares of: all occurrences, or (with `uniqueClients`) all clients.
  var total: Int { get }
  /// How many paths the clients took: one per client, and one more per gap.
  var pathCount: Int { get }
  /// The sequences, most common first; ties in the order of their pages compared as bytes.
  /// `top` 0 returns them all.
  func ranking(top: Int) -> [RankedSequence]
  /// The entry (or exit) pages of the paths, most common first, ties in the order of their
  /// bytes; `top` 0 returns them all.
  func ranking(of end: PathEnd, top: Int) -> [RankedSequence]
  /// The panels counted (`options.panels`), each ranked, `top` rows at most (0 for all).
  func panels(top: Int) -> PanelReport
  /// How far the paths went through the funnel (`options.funnel`); nil without one.
  func funnel() -> FunnelReport?
}

extension RankedAnalysis {
  /// For an analysis that counts no panels.
  public func panels(top: Int) -> PanelReport { .empty }
  /// For an analysis that counts no funnel.
  public func funnel() -> FunnelReport? { nil }
  /// For an analysis that does not tell such lines apart.
  public var unreadableRequests: Int { 0 }
  /// For an analysis that does not keep their clients.
  public var clientsWithoutPage: Int { 0 }
  /// For an analysis that does not keep them: UTC.
  public var timeRangeOffsets: TimeRangeOffsets { TimeRangeOffsets() }

  /// Whether there were lines and none of them read: the log is not in the format it was read
  /// as. A verdict on a whole log only: one shard of it may hold nothing but junk.
  public var noLineReads: Bool { lines > 0 && malformedLines == lines }
}

extension Partial: RankedAnalysis {
  public func funnel() -> FunnelReport? { funnelCounts.isEmpty ? nil : funnelCounts.report() }
}
