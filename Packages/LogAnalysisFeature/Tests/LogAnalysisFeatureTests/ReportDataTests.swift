import AnalysisReport
import LogAnalysis
import LogAnalysisFeature
import Testing

@Suite struct ReportDataTests {
  private func partial(_ options: AnalysisOptions) -> Partial {
    let visits = (0..<30).flatMap { client in
      (0..<4).map { page in
        #"c\#(client) - - [10/Oct/2000:13:55:\#(10 + page) -0700] "GET /p\#(client % 25)-\#(page) HTTP/1.0" 200 1"#
      }
    }
    return Array(visits.joined(separator: "\n").utf8).withUnsafeBytes {
      try! LogAnalyzer.analyze($0, options: options)
    }
  }

  @Test func theTableHasTopRowsAndTheFlowAtLeastTwenty() {
    let report = ReportData(partial(AnalysisOptions()), top: 5, inputs: ["a.log"])
    #expect(report.inputs == ["a.log"])
    #expect(report.sequences.count == 5)
    #expect(report.flow.count == 20)
    #expect(report.sequences == Array(report.flow.prefix(5)))
    #expect(report.entries == nil && report.exits == nil)
    #expect(report.options == ["--length", "3"])
  }

  @Test func withSessionsTheEntryAndExitPagesAreThere() {
    var options = AnalysisOptions()
    options.sessionGap = 1800
    let report = ReportData(partial(options), top: 3, inputs: ["-"])
    #expect(report.entries?.count == 3 && report.exits?.count == 3)
    #expect(report.entries?.first?.pages.first?.hasSuffix("-0") == true)
    #expect(report.exits?.first?.pages.first?.hasSuffix("-3") == true)
    #expect(report.options == ["--length", "3", "--session-gap", "1800s"])
  }

  @Test func panelsAreTheReportsSectionsWithTheirShares() {
    var options = AnalysisOptions()
    options.panels = [.status, .hours]
    let report = ReportData(partial(options), top: 3, inputs: ["a.log"])
    #expect(
      report.panels.map(\.title) == [
        "Status codes", "Status classes", "Visits by hour of day", "Visits by day",
      ])
    #expect(report.panels[0].rows == [.init(name: "200", count: 120, share: 1)])
    #expect(report.panels[2].isTimeline && report.panels[2].rows.count == 24)
    // The time as the lines wrote it, 13:55 at -0700.
    #expect(report.panels[2].rows[13].count == 120)
    #expect(report.panels[3].rows == [.init(name: "2000-10-10", count: 120, share: 1)])
    #expect(report.options.suffix(2) == ["--panels", "status,hours"])
    #expect(report.bytes == nil)
  }
}
