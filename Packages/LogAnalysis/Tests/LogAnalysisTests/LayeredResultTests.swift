import Foundation
import LogAnalysisTestSupport
import Testing

@testable import LogAnalysis

/// A base written with its index and the lines after it give, without loading the base,
/// what the base's partial with the later one appended gives.
@Suite struct LayeredResultTests {
  /// Visits of `clients` clients (when many, most of them absent from any one part) to a
  /// few pages, some far apart in time, some filtered out, with a garbage line now and then.
  private func lines(seed: UInt64, count: Int, clients: UInt64 = 120) -> [String] {
    var generator = SplitMix(seed: seed)
    var time: Int64 = 1_704_103_200
    let agents = ["Mozilla/5.0", "Googlebot/2.1"]
    return (0..<count).map { _ in
      time += Int64(generator.next() % 50 == 0 ? 4000 : generator.next() % 120)
      if generator.next() % 97 == 0 { return "garbage line\n" }
      let visit = Visit(
        address: "10.0.0.\(generator.next() % clients)",
        page: "/p\(min(generator.next() % 9, generator.next() % 9))",
        query: generator.next() % 5 == 0 ? "q=\(generator.next() % 3)" : nil,
        status: [200, 200, 200, 304, 404][Int(generator.next() % 5)], time: time,
        agent: agents[Int(generator.next() % 4 == 0 ? 1 : 0)],
        size: generator.next() % 5 == 0 ? nil : Int(generator.next() % 9000),
        referer: generator.next() % 2 == 0 ? nil : "http://r\(generator.next() % 4).example/")
      return LogWriter.combined([visit])
    }
  }

  /// The base written indexed and read where it lies.
  private func indexed(_ partial: Partial) throws -> IndexedPartial {
    try IndexedPartial(file: pinned(partial.serialized(indexed: true)))
  }

  /// `data` in page-aligned memory of its own, as a mapped file's bytes are.
  private func pinned(_ data: Data) -> PinnedBytes {
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
  private func summary(_ result: some RankedAnalysis, top: Int) -> [String] {
    [
      "\(result.lines) \(result.malformedLines) \(result.filteredLines) \(result.commentLines)",
      "\(result.formatName ?? "-") \(result.firstMalformedLine ?? "-") \(String(describing: result.timeRange))",
      "clients \(result.clientCount) sequences \(result.distinctSequences)",
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

  @Test(arguments: 0..<24)
  func givesWhatTheMergedPartialGives(seed: Int) throws {
    var generator = SplitMix(seed: UInt64(seed))
    var options = randomOptions(&generator)
    // Every kind in turn, whatever else was drawn.
    options.uniqueClients = seed % 2 == 1
    options.sessionGap = seed % 4 < 2 ? nil : 1800
    options.panels = seed % 3 == 0 ? .all : Panels(rawValue: Int(generator.next() % 128))
    options.funnel = [[], ["/p0", "/p1*", "/p2"], ["/p*", "/p0", "/p0", "*3"]][seed % 3]
    let all = lines(
      seed: UInt64(seed), count: 400 + Int(generator.next() % 400), clients: seed % 3 == 0 ? 5 : 150
    )
    let cut = Int(generator.next() % UInt64(all.count + 1))
    let base = analyze(all[..<cut].joined(), options: options, chunks: 3)
    let delta = analyze(all[cut...].joined(), options: options, chunks: 2)
    var merged = base
    merged.append(delta)
    let layered = try LayeredResult(base: try indexed(base), delta: delta)
    let top = 1 + Int(generator.next() % 5)
    #expect(summary(layered, top: top) == summary(merged, top: top))
  }

  @Test func anEmptyBaseOrDeltaGivesTheOther() throws {
    let text = lines(seed: 7, count: 300).joined()
    let options = AnalysisOptions(sessionGap: 600)
    let whole = analyze(text, options: options)
    let empty = Partial(options: options)
    #expect(
      summary(try LayeredResult(base: try indexed(empty), delta: whole), top: 3)
        == summary(whole, top: 3))
    #expect(
      summary(try LayeredResult(base: try indexed(whole), delta: empty), top: 3)
        == summary(whole, top: 3))
  }

  @Test func anIndexedBaseLoadsAsThePartialItWas() throws {
    let partial = analyze(
      lines(seed: 3, count: 500).joined(), options: AnalysisOptions(uniqueClients: true))
    #expect(summary(try indexed(partial).loaded(), top: 4) == summary(partial, top: 4))
  }

  @Test func aPartialWithoutItsIndexIsRefused() throws {
    let data = analyze(lines(seed: 5, count: 50).joined()).serialized()
    #expect(throws: PartialFileError(description: "it is not an indexed partial result")) {
      try IndexedPartial(file: pinned(data))
    }
  }

  /// A base whose sequences name a page past its pages, or count one 0 times, is refused:
  /// every id and count is checked before the result is worked out.
  @Test(arguments: [false, true])
  func aBaseWithAnIdOrCountOutOfRangeIsRefused(damagingTheCount: Bool) throws {
    let partial = analyze(lines(seed: 11, count: 400).joined())
    let data = partial.serialized(indexed: true)
    let mapped = try indexed(partial)
    let section = damagingTheCount ? mapped.windowCounts.bytes : mapped.windowIds.bytes
    let at = try #require(data.firstRange(of: Data(section))).lowerBound
    var damaged = data
    damaged.replaceSubrange(at..<at + 4, with: [0, 0, 0, damagingTheCount ? 0 : 0x7F])
    if damagingTheCount { damaged.replaceSubrange(at + 4..<at + 8, with: [0, 0, 0, 0]) }
    let base = try IndexedPartial(file: pinned(damaged))
    // The damage is where it was meant to be.
    #expect(damagingTheCount ? base.windowCounts[0] == 0 : base.windowIds[0] == 0x7F00_0000)
    let words = damagingTheCount ? "a sequence's count is out of range" : "of the wrong form"
    #expect {
      try LayeredResult(base: base, delta: Partial(options: partial.options))
    } throws: { error in
      "\(error)".contains(words)
    }
  }
}
