import Foundation
import Testing

@testable import LogAnalysis

/// A combined-format line for `client` visiting `page`.
func line(_ client: String, _ page: String) -> String {
  #"\#(client) - - [10/Oct/2000:13:55:36 -0700] "GET \#(page) HTTP/1.0" 200 2326 "-" "agent""#
}

/// A log of `visits` (client, page), one line each.
func log(_ visits: [(String, String)]) -> String {
  visits.map { line($0.0, $0.1) }.joined(separator: "\n") + "\n"
}

/// The analysis of `text`; an error fails the test.
func analyze(
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
func ranked(_ partial: some RankedAnalysis, top: Int = 0) -> [String] {
  partial.ranking(top: top).map { "\($0.pageTexts.joined(separator: "-")):\($0.count)" }
}

/// The obvious implementation, for comparison: every client's pages in order, every window.
func naiveRanking(_ visits: [(String, String)], length: Int, unique: Bool = false) -> [String] {
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
