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
    let csv = screen([["=1+1", "/a,b", "-x"]]).csv()
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
