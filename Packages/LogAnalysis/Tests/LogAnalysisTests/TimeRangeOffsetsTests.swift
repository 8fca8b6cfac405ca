import Foundation
import LogAnalysisTestSupport
import Testing

@testable import LogAnalysis

/// The first and last times keep the zone their lines were written in, so that a report says
/// the range in the log's clock, as its day and hour panels count.
@Suite struct TimeRangeOffsetsTests {
  /// Written in Berlin: +0200 in summer, +0100 after the clocks went back, out of order.
  private let text =
    [
      #"a - - [27/Oct/2024:02:30:00 +0200] "GET /1 HTTP/1.1" 200 1 "-" "x""#,
      #"a - - [26/Oct/2024:23:00:00 +0200] "GET /0 HTTP/1.1" 200 1 "-" "x""#,
      #"a - - [27/Oct/2024:02:10:00 +0100] "GET /2 HTTP/1.1" 200 1 "-" "x""#,
    ].joined(separator: "\n") + "\n"

  @Test(arguments: [false, true])
  func eachEndKeepsItsLinesOffset(fullReading: Bool) throws {
    var options = AnalysisOptions(length: 2)
    if fullReading { options.filters.statuses = [200] }
    for chunks in [1, 3] {
      let partial = Array(text.utf8).withUnsafeBytes {
        try? LogAnalyzer.analyze($0, options: options, readingTimes: true, chunks: chunks)
      }
      let read = try #require(partial)
      // 2024-10-26 21:00 UTC to 2024-10-27 01:10 UTC.
      #expect(read.timeRange == 1_729_976_400...1_729_991_400)
      #expect(read.timeRangeOffsets == TimeRangeOffsets(earliest: 7200, latest: 3600))
      let again = try Partial(serialized: read.serialized())
      #expect(again.timeRangeOffsets == read.timeRangeOffsets)
    }
  }

  @Test func aMergeTakesEachEndFromThePartThatHoldsIt() {
    let first = TimeRangeOffsets(earliest: 3600, latest: 3600)
    let second = TimeRangeOffsets(earliest: 7200, latest: -18_000)
    #expect(TimeRangeOffsets.merging(10...20, first, 5...30, second) == second)
    #expect(TimeRangeOffsets.merging(10...20, first, 12...30, second).earliest == 3600)
    #expect(TimeRangeOffsets.merging(10...20, first, 12...30, second).latest == -18_000)
    #expect(TimeRangeOffsets.merging(nil, first, 12...30, second) == second)
    #expect(TimeRangeOffsets.merging(10...20, first, nil, second) == first)
  }
}
