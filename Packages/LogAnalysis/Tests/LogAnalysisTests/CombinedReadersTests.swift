import Foundation
import LogAnalysisTestSupport
import Testing

@testable import LogAnalysis

/// Combined and common lines have two readers: `LineParser`, the fast path that reads only the
/// client, the page and the time (and the tail the panels need) eight bytes at a time, and the
/// combined format's `ApacheLayout`, which reads every field for the options that need them.
/// They must agree on every line: which line is malformed, a comment or no page, and what it
/// counts. Lines are generated, then damaged byte by byte; the LogLines and LogAnalysis fuzzers
/// check the same on the bytes they make.
@Suite struct CombinedReadersTests {
  /// Generated combined lines, and each with one damage: a byte changed, a cut, a byte
  /// inserted, from the bytes that delimit the fields.
  private func lines(seed: UInt64, count: Int) -> [String] {
    var generator = SplitMix(seed: seed)
    let delimiters = Array(" \"[]-:/?#\t\r0".utf8)
    var lines: [String] = []
    for index in 0..<count {
      let visit = Visit(
        address: index % 17 == 0 ? "-" : "10.0.\(generator.next() % 3).\(generator.next() % 9)",
        page: ["/", "/a", "/b?x=1", "/c.css", "http://h/p", "*"][Int(generator.next() % 6)],
        query: nil, status: [200, 304, 404][Int(generator.next() % 3)],
        time: 1_704_103_200 + Int64(index * 7), agent: "agent \(generator.next() % 3)",
        size: generator.next() % 4 == 0 ? nil : Int(generator.next() % 5000),
        referer: generator.next() % 2 == 0 ? nil : "http://r/")
      var bytes = Array(LogWriter.combined([visit]).utf8.dropLast())
      lines.append(String(decoding: bytes, as: UTF8.self))
      let at = Int(generator.next() % UInt64(bytes.count))
      let byte = delimiters[Int(generator.next() % UInt64(delimiters.count))]
      switch generator.next() % 3 {
      case 0: bytes[at] = byte
      case 1: bytes.removeSubrange(at...)
      default: bytes.insert(byte, at: at)
      }
      lines.append(String(decoding: bytes, as: UTF8.self))
    }
    return lines
  }

  @Test(arguments: [1, 2, 3])
  func bothReadersCountEveryLineAlike(seed: UInt64) throws {
    let text = lines(seed: seed, count: 2000).joined(separator: "\n") + "\n#comment\n\n"
    var stripped = AnalysisOptions(length: 2, stripQuery: true, excludeStatic: true)
    stripped.panels = .all
    for options in [AnalysisOptions(length: 1), AnalysisOptions(length: 3), stripped] {
      try Array(text.utf8).withUnsafeBytes { bytes in
        let full = try #require(try LineLayout(.combined, sample: bytes))
        let fast = LogAnalyzer.analyze(bytes, options: options, layout: nil, chunks: 1)
        let read = LogAnalyzer.analyze(bytes, options: options, layout: full, chunks: 1)
        #expect(fast.lines == read.lines)
        #expect(fast.malformedLines == read.malformedLines)
        #expect(fast.filteredLines == read.filteredLines)
        #expect(fast.commentLines == read.commentLines)
        #expect(fast.unreadableRequests == read.unreadableRequests)
        #expect(fast.firstMalformedLine == read.firstMalformedLine)
        #expect(ranked(fast) == ranked(read))
        #expect(fast.panels(top: 5) == read.panels(top: 5))
        // The damage made lines of every kind.
        #expect(fast.malformedLines > 100 && fast.lines - fast.malformedLines > 2000)
      }
    }
  }
}
