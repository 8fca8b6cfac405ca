import Foundation
import LogAnalysisTestSupport

@testable import LogAnalysis

/// Visits of `clients` clients (when many, most of them absent from any one part) to
/// `pages` pages (the first ones most), some far apart in time, some filtered out, with a garbage line now and then.
func indexedTestLines(
  seed: UInt64, count: Int, clients: UInt64 = 120, pages: UInt64 = 9
) -> [String] {
  var generator = SplitMix(seed: seed)
  var time: Int64 = 1_704_103_200
  let agents = ["Mozilla/5.0", "Googlebot/2.1"]
  return (0..<count).map { _ in
    time += Int64(generator.next() % 50 == 0 ? 4000 : generator.next() % 120)
    if generator.next() % 97 == 0 { return "garbage line\n" }
    if generator.next() % 61 == 0 {
      // A request that names no page, from a scanner that never names one or a client.
      let client = generator.next() % 2 == 0 ? "10.9.0.\(generator.next() % 40)" : "10.0.0.7"
      return "\(client) - - [01/Jan/2024:10:00:00 +0000] \"-\" 400 0 \"-\" \"-\"\n"
    }
    let visit = Visit(
      address: "10.0.0.\(generator.next() % clients)",
      page: "/p\(min(generator.next() % pages, generator.next() % pages))",
      query: generator.next() % 5 == 0 ? "q=\(generator.next() % 3)" : nil,
      status: [200, 200, 200, 304, 404][Int(generator.next() % 5)], time: time,
      agent: agents[Int(generator.next() % 4 == 0 ? 1 : 0)],
      size: generator.next() % 5 == 0 ? nil : Int(generator.next() % 9000),
      referer: generator.next() % 2 == 0 ? nil : "http://r\(generator.next() % 4).example/")
    return LogWriter.combined([visit])
  }
}

/// `partial` written with its index and read where it lies.
func indexedPartial(_ partial: Partial) throws -> IndexedPartial {
  try IndexedPartial(file: pinnedBytes(partial.serialized(indexed: true)))
}

/// `data` in page-aligned memory of its own, as a mapped file's bytes are.
func pinnedBytes(_ data: Data) -> PinnedBytes {
  let buffer = UnsafeMutableRawBufferPointer.allocate(
    byteCount: max(1, data.count), alignment: 4096)
  buffer.copyBytes(from: data)
  // Safe: deallocated once, when the bytes are let go.
  nonisolated(unsafe) let owned = buffer
  return PinnedBytes(UnsafeRawBufferPointer(rebasing: buffer[0..<data.count])) {
    owned.deallocate()
  }
}

/// Everything a screen or report reads of `result`.
func resultSummary(_ result: some RankedAnalysis, top: Int) -> [String] {
  [
    "\(result.lines) \(result.malformedLines) \(result.filteredLines) \(result.commentLines)",
    "\(result.formatName ?? "-") \(result.firstMalformedLine ?? "-") \(String(describing: result.timeRange))",
    "clients \(result.clientCount) sequences \(result.distinctSequences)",
    "clients without a page \(result.clientsWithoutPage)",
    "total \(result.total) paths \(result.pathCount)",
    "panels \(result.panels(top: top)) all \(result.panels(top: 0))",
    "funnel \(String(describing: result.funnel()))",
  ]
    + [top, 0].flatMap { top in
      result.ranking(top: top).map { "\($0.pageTexts):\($0.count)" }
        + PathEnd.allCases.flatMap { end in
          result.ranking(of: end, top: top).map { "\(end) \($0.pageTexts):\($0.count)" }
        }
    }
}

/// Random options, with every kind in turn by `seed`: occurrences or clients, with a session
/// gap or without, all panels or some, a funnel of each shape or none.
func optionsOfEveryKind(seed: Int, _ generator: inout SplitMix) -> AnalysisOptions {
  var options = randomOptions(&generator)
  options.uniqueClients = seed % 2 == 1
  options.sessionGap = seed % 4 < 2 ? nil : 1800
  options.panels = seed % 3 == 0 ? .all : Panels(rawValue: Int(generator.next() % 128))
  options.funnel = [[], ["/p0", "/p1*", "/p2"], ["/p*", "/p0", "/p0", "*3"]][seed % 3]
  return options
}
