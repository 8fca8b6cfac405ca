/// What the tests of LogAnalysis and LogAnalysisLive share: logs made of visits, their
/// analysis, and the obvious rankings to compare with.
import Foundation
import LogAnalysis
import Testing

/// A combined-format line for `client` visiting `page`.
package func line(_ client: String, _ page: String) -> String {
  #"\#(client) - - [10/Oct/2000:13:55:36 -0700] "GET \#(page) HTTP/1.0" 200 2326 "-" "agent""#
}

/// A log of `visits` (client, page), one line each.
package func log(_ visits: [(String, String)]) -> String {
  visits.map { line($0.0, $0.1) }.joined(separator: "\n") + "\n"
}

/// The analysis of `text`; an error fails the test.
package func analyze(
  _ text: String, options: AnalysisOptions = AnalysisOptions(), format: LogFormat? = nil,
  chunks: Int = 4
) -> Partial {
  Array(text.utf8).withUnsafeBytes { bytes in
    do {
      return try LogAnalyzer.analyze(bytes, options: options, format: format, chunks: chunks)
    } catch {
      Issue.record("the analysis failed: \(error)")
      return Partial(options: options)
    }
  }
}

/// `(pages joined by "-", count)` of the ranking.
package func ranked(_ partial: some RankedAnalysis, top: Int = 0) -> [String] {
  partial.ranking(top: top).map { "\($0.pageTexts.joined(separator: "-")):\($0.count)" }
}

/// The obvious implementation, for comparison: every client's pages in order, every window.
package func naiveRanking(_ visits: [(String, String)], length: Int, unique: Bool = false)
  -> [String]
{
  var pagesByClient: [String: [String]] = [:]
  for (client, page) in visits { pagesByClient[client, default: []].append(page) }
  var counts: [[String]: Int] = [:]
  var producers: [[String]: Set<String>] = [:]
  for (client, pages) in pagesByClient where pages.count >= length {
    for start in 0...(pages.count - length) {
      let window = Array(pages[start..<start + length])
      counts[window, default: 0] += 1
      producers[window, default: []].insert(client)
    }
  }
  let entries =
    unique ? producers.map { ($0.key, $0.value.count) } : counts.map { ($0.key, $0.value) }
  return entries.sorted { a, b in
    if a.1 != b.1 { return a.1 > b.1 }
    for (x, y) in zip(a.0, b.0) where x != y {
      return Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8))
    }
    return false
  }.map { "\($0.0.joined(separator: "-")):\($0.1)" }
}

/// A small seeded generator.
package struct SplitMix {
  private var state: UInt64
  package init(seed: UInt64) { state = seed }
  package mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}
