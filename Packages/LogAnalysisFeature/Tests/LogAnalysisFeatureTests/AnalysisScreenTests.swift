import LogAnalysis
import LogAnalysisFeature
import Testing

@Suite struct AnalysisScreenTests {
  private func partial(_ text: String, options: AnalysisOptions = AnalysisOptions()) -> Partial {
    // The combined format with the options these tests use never fails.
    Array(text.utf8).withUnsafeBytes { try! LogAnalyzer.analyze($0, options: options) }
  }

  private func line(_ client: String, _ page: String) -> String {
    #"\#(client) - - [10/Oct/2000:13:55:36 -0700] "GET \#(page) HTTP/1.0" 200 1"#
  }

  @Test func rowsCarryRankCountShareAndSequence() {
    let text = [
      line("a", "/1"), line("a", "/2"), line("a", "/3"), line("a", "/1"), line("a", "/2"),
      line("a", "/3"), "junk",
    ].joined(separator: "\n")
    let screen = AnalysisScreen(partial(text), top: 2)
    #expect(screen.rows.map(\.rank) == [1, 2])
    #expect(screen.rows[0].count == 2)
    #expect(screen.rows[0].sequenceText == "/1 → /2 → /3")
    #expect(screen.rows[0].shareText == "50.00%")
    #expect(screen.lines == 7)
    #expect(screen.malformedLines == 1)
    #expect(screen.distinctSequences == 3)
    #expect(
      screen.summary(bytes: 2_000_000, elapsed: .seconds(2))
        == "7 lines (common), 6 visits, 1 malformed, 1 client, 3 distinct sequences in 2.00 s"
        + " (1 MB/s)")
    // A watch's summary has no rate: its time is mostly waiting.
    #expect(
      screen.summary(elapsed: .seconds(2))
        == "7 lines (common), 6 visits, 1 malformed, 1 client, 3 distinct sequences in 2.00 s")
  }

  /// The summary and the result say how many lines the filters left out.
  @Test func linesLeftOutByFiltersAreCounted() {
    let text = [line("a", "/1"), line("a", "/2"), line("a", "/style.css"), line("a", "/3")]
      .joined(separator: "\n")
    let screen = AnalysisScreen(
      partial(text, options: AnalysisOptions(excludeStatic: true)), top: 1)
    #expect(screen.filteredLines == 1)
    #expect(
      screen.summary(bytes: 0, elapsed: .seconds(1)).hasPrefix(
        "4 lines (common), 3 visits, 0 malformed, 1 left out by filters, 1 client"))
    #expect(AnalysisResult(screen).filteredLines == 1)
  }

  /// The screen for the summary alone (a run that writes a partial result or a report) says
  /// what the whole screen's summary says, and ranks and counts nothing else.
  @Test func theSummaryAloneSaysTheSameAndRanksNothing() {
    let text = [line("a", "/1"), line("a", "/2"), line("b", "/1"), line("b", "/3"), "junk"]
      .joined(separator: "\n")
    var options = AnalysisOptions(length: 2)
    options.panels = .all
    options.funnel = ["/1", "/2"]
    let analysis = partial(text, options: options)
    let whole = AnalysisScreen(analysis, top: 0)
    let summary = AnalysisScreen(summaryOf: analysis)
    #expect(whole.rows.count == 2 && !whole.panels.isEmpty && whole.funnel != nil)
    #expect(summary.rows.isEmpty && summary.panels.isEmpty && summary.funnel == nil)
    #expect(
      summary.summary(bytes: 1_000_000, elapsed: .seconds(1))
        == whole.summary(bytes: 1_000_000, elapsed: .seconds(1)))
    #expect(
      summary.summary(elapsed: .seconds(1))
        == "5 lines (common), 4 visits, 1 malformed, 2 clients, 2 distinct sequences in 1.00 s")
  }

  @Test func sharesOfClientsWhenCountingClients() {
    let text = [line("a", "/1"), line("a", "/2"), line("b", "/1"), line("b", "/3")]
      .joined(separator: "\n")
    let screen = AnalysisScreen(
      partial(text, options: AnalysisOptions(length: 2, uniqueClients: true)), top: 0)
    #expect(screen.countsClients)
    #expect(screen.rows.map(\.shareText) == ["50.00%", "50.00%"])
  }

  @Test func theResultSaysWhatItCounts() {
    let text = [line("a", "/1"), line("a", "/2"), line("b", "/1"), line("b", "/3")]
      .joined(separator: "\n")
    let options = AnalysisOptions(length: 2)
    let result = AnalysisResult(AnalysisScreen(partial(text, options: options), top: 1))
    #expect(result.counting == "occurrences")
    #expect((result.length, result.lines, result.clients) == (2, 4, 2))
    #expect(result.sequences.map(\.pages) == [["/1", "/2"]])
    #expect(result.sequences.map(\.share) == [0.5])
    let clients = AnalysisOptions(length: 2, uniqueClients: true)
    #expect(
      AnalysisResult(AnalysisScreen(partial(text, options: clients), top: 1)).counting
        == "clients")
  }

  @Test func controlCharactersInPagesAreShownEscaped() {
    let text = [line("a", "/a"), line("a", "/b"), line("a", "/\u{1B}[2J")]
      .joined(separator: "\n")
    let screen = AnalysisScreen(partial(text), top: 0)
    #expect(screen.rows.first?.sequenceText == #"/a → /b → /\x1B[2J"#)
  }
}
