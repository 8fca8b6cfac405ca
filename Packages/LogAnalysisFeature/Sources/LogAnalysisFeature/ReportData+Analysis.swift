import AnalysisReport
import LogAnalysis
import StyleGuide

extension ReportData {
  /// What the HTML report shows of the partial result `partial`, as of any analysis below
  /// (the initializer of 3.0).
  public init(_ partial: Partial, top: Int, inputs: [String]) {
    self.init(of: partial, top: top, inputs: inputs)
  }

  /// What the HTML report shows of `analysis`, read from `inputs`: the table's rows (the `top`
  /// sequences, 0 for all), the top 20 (or up to 50 with a larger `top`) sequences in the flow,
  /// and with a session gap the entry and exit pages; rows and shares are the terminal's.
  public init(_ analysis: some RankedAnalysis, top: Int, inputs: [String]) {
    self.init(of: analysis, top: top, inputs: inputs)
  }

  private init(of analysis: some RankedAnalysis, top: Int, inputs: [String]) {
    func rows(_ ranking: PathEnd?, top: Int) -> [Row] {
      AnalysisScreen(of: analysis, top: top, ranking: ranking, panels: false).rows.map {
        Row(pages: $0.pages.map(\.printable), count: $0.count, share: $0.share)
      }
    }
    let sessions = analysis.options.sessionGap != nil
    let withoutPage = analysis.clientsWithoutPage
    self.init(
      inputs: inputs, lines: analysis.lines,
      malformedLines: analysis.malformedLines, firstMalformedLine: analysis.firstMalformedLine,
      clients: analysis.clientCount + withoutPage,
      distinctSequences: analysis.distinctSequences,
      timeRange: analysis.timeRange, options: analysis.options.words,
      length: analysis.options.length, countsClients: analysis.options.uniqueClients,
      sequences: rows(nil, top: top), flow: rows(nil, top: max(20, min(top, 50))),
      entries: sessions ? rows(.entry, top: top) : nil,
      exits: sessions ? rows(.exit, top: top) : nil)
    unreadableRequests = analysis.unreadableRequests
    clientsWithoutPage = withoutPage
    earliestOffset = analysis.timeRangeOffsets.earliest
    latestOffset = analysis.timeRangeOffsets.latest
    let report = analysis.panels(top: top)
    panels = report.sections.map { section in
      Panel(
        title: section.title, nameHeader: section.nameHeader,
        rows: section.rows.map {
          Panel.Row(name: $0.name.printable, count: $0.count, share: $0.share, bytes: $0.bytes)
        }, isTimeline: section.isTimeline, sharesBytes: section.sharesBytes)
    }
    bytes = report.panels.contains(.bandwidth) ? report.bytes : nil
    funnel = analysis.funnel().map { funnel in
      Funnel(
        paths: funnel.paths,
        steps: funnel.steps.map { step in
          Funnel.Step(
            page: step.glob.printable, paths: step.paths,
            share: AnalysisScreen.funnelShare(step, of: funnel), dropOff: step.dropOff,
            medianTime: step.medianSeconds.map(AnalysisScreen.durationText))
        })
    }
  }
}
