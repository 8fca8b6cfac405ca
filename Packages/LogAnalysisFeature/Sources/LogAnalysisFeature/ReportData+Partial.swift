import AnalysisReport
import LogAnalysis
import StyleGuide

extension ReportData {
  /// What the HTML report shows of `partial`, read from `inputs`: the table's rows (the `top`
  /// sequences, 0 for all), the top 20 (or up to 50 with a larger `top`) sequences in the flow,
  /// and with a session gap the entry and exit pages; rows and shares are the terminal's.
  public init(_ partial: Partial, top: Int, inputs: [String]) {
    func rows(_ ranking: PathEnd?, top: Int) -> [Row] {
      AnalysisScreen(partial, top: top, ranking: ranking).rows.map {
        Row(pages: $0.pages.map(\.printable), count: $0.count, share: $0.share)
      }
    }
    let sessions = partial.options.sessionGap != nil
    self.init(
      inputs: inputs, lines: partial.lines,
      malformedLines: partial.malformedLines, firstMalformedLine: partial.firstMalformedLine,
      clients: partial.clientCount, distinctSequences: partial.distinctSequences,
      timeRange: partial.timeRange, options: partial.options.words,
      length: partial.options.length, countsClients: partial.options.uniqueClients,
      sequences: rows(nil, top: top), flow: rows(nil, top: max(20, min(top, 50))),
      entries: sessions ? rows(.entry, top: top) : nil,
      exits: sessions ? rows(.exit, top: top) : nil)
  }
}
