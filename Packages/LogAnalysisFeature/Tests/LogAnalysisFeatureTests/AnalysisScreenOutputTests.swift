import Foundation
import LogAnalysis
import LogAnalysisFeature
import Testing

@Suite struct AnalysisScreenOutputTests {
  private func screen(_ pages: [[String]], top: Int = 10) -> AnalysisScreen {
    let text = pages.enumerated().flatMap { client, visits in
      visits.map { #"c\#(client) - - [10/Oct/2000:13:55:36 -0700] "GET \#($0) HTTP/1.0" 200 1"# }
    }.joined(separator: "\n")
    // The combined format never fails on these lines.
    let partial = Array(text.utf8).withUnsafeBytes {
      try! LogAnalyzer.analyze($0, options: AnalysisOptions())
    }
    return AnalysisScreen(partial, top: top)
  }

  @Test func theTableHasRankCountShareABarAndTheSequence() {
    let table = screen([["/a", "/b", "/c", "/d"], ["/a", "/b", "/c"]]).table(ascii: true)
    #expect(
      table == """
        rank  count    share              sequence
           1      2   66.67%  ##########  /a → /b → /c
           2      1   33.33%  #####       /b → /c → /d

        """)
  }

  /// On a terminal, a sequence too long for its column goes on under itself, broken after an
  /// arrow; a page too long for a line is cut in its middle.
  @Test func aSequenceWiderThanTheTerminalWrapsAfterAnArrow() {
    let long = "/" + String(repeating: "x", count: 30)
    let table = screen([[long, long + "y", long + "z"]]).table(ascii: true, width: 70)
    let lines = table.split(separator: "\n")
    #expect(lines.count == 4)
    #expect(lines.allSatisfy { $0.count <= 70 })
    #expect(lines[1].hasSuffix(long + " →"))
    #expect(lines[2].hasPrefix(String(repeating: " ", count: 34) + long + "y"))
  }

  @Test func csvQuotesWhatASpreadsheetWouldRun() {
    // Pages as a JSON or W3C log may name them: a request line's would be paths.
    var read = screen([["/a", "/b", "/c"]])
    read.rows[0].pages = ["=1+1", "/a,b", "-x"]
    let csv = read.csv()
    #expect(csv == "rank,count,share,page1,page2,page3\r\n1,1,1.0,\"'=1+1\",\"/a,b\",\"'-x\"\r\n")
    #expect(AnalysisScreen.csvField(#"say "hi""#) == #""say ""hi""""#)
  }

  @Test func jsonIsTheResultAndANewline() throws {
    let json = screen([["/a", "/b", "/c"]]).json()
    #expect(json.hasSuffix("}\n"))
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    let sequences = object?["sequences"] as? [[String: Any]]
    #expect(sequences?.first?["pages"] as? [String] == ["/a", "/b", "/c"])
  }
}

extension AnalysisScreenOutputTests {
  /// The funnel's table: a step a row, its share of the first step's paths, the paths lost
  /// since the step before and the median time from it, as a person reads a duration.
  @Test func theFunnelTableSaysWhatEachStepLost() {
    var screen = screen([["/a"]])
    screen.funnel = FunnelReport(
      steps: [
        .init(glob: "/", paths: 8, dropOff: 0, medianSeconds: nil),
        .init(glob: "/products/*", paths: 2, dropOff: 6, medianSeconds: 65),
        .init(glob: "/cart", paths: 1, dropOff: 1, medianSeconds: 7_530.5),
        .init(glob: "/pay", paths: 0, dropOff: 1, medianSeconds: nil),
      ], paths: 9)
    #expect(
      screen.funnelTable(ascii: true) == """
        Funnel (9 paths; a step counts when reached after the one before)
        step  paths    share                  lost    median  page
           1      8  100.00%  ##########         -         -  /
           2      2   25.00%  ###                6    1m 05s  /products/*
           3      1   12.50%  #                  1    2h 05m  /cart
           4      0    0.00%                     1         -  /pay

        """)
  }
}
