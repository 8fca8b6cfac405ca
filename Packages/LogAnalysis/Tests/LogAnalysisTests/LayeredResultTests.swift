import Foundation
import LogAnalysisTestSupport
import Testing

@testable import LogAnalysis

/// A base written with its index and the lines after it give, without loading the base,
/// what the base's partial with the later one appended gives.
@Suite struct LayeredResultTests {
  @Test(arguments: 0..<24)
  func givesWhatTheMergedPartialGives(seed: Int) throws {
    var generator = SplitMix(seed: UInt64(seed))
    let options = optionsOfEveryKind(seed: seed, &generator)
    let all = indexedTestLines(
      seed: UInt64(seed), count: 400 + Int(generator.next() % 400), clients: seed % 3 == 0 ? 5 : 150
    )
    let cut = Int(generator.next() % UInt64(all.count + 1))
    let base = analyze(all[..<cut].joined(), options: options, chunks: 3)
    let delta = analyze(all[cut...].joined(), options: options, chunks: 2)
    var merged = base
    merged.append(delta)
    let layered = try LayeredResult(base: try indexedPartial(base), delta: delta)
    let top = 1 + Int(generator.next() % 5)
    #expect(resultSummary(layered, top: top) == resultSummary(merged, top: top))
  }

  @Test func anEmptyBaseOrDeltaGivesTheOther() throws {
    let text = indexedTestLines(seed: 7, count: 300).joined()
    let options = AnalysisOptions(sessionGap: 600)
    let whole = analyze(text, options: options)
    let empty = Partial(options: options)
    #expect(
      resultSummary(try LayeredResult(base: try indexedPartial(empty), delta: whole), top: 3)
        == resultSummary(whole, top: 3))
    #expect(
      resultSummary(try LayeredResult(base: try indexedPartial(whole), delta: empty), top: 3)
        == resultSummary(whole, top: 3))
  }

  @Test func anIndexedBaseLoadsAsThePartialItWas() throws {
    let partial = analyze(
      indexedTestLines(seed: 3, count: 500).joined(), options: AnalysisOptions(uniqueClients: true))
    #expect(
      resultSummary(try indexedPartial(partial).loaded(), top: 4) == resultSummary(partial, top: 4))
  }

  @Test func aPartialWithoutItsIndexIsRefused() throws {
    let data = analyze(indexedTestLines(seed: 5, count: 50).joined()).serialized()
    #expect(throws: PartialFileError(description: "it is not an indexed partial result")) {
      try IndexedPartial(file: pinnedBytes(data))
    }
  }

  /// A base whose sequences name a page past its pages, or count one 0 times, is refused:
  /// every id and count is checked before the result is worked out.
  @Test(arguments: [false, true])
  func aBaseWithAnIdOrCountOutOfRangeIsRefused(damagingTheCount: Bool) throws {
    let partial = analyze(indexedTestLines(seed: 11, count: 400).joined())
    let data = partial.serialized(indexed: true)
    let mapped = try indexedPartial(partial)
    let section = damagingTheCount ? mapped.windowCounts.bytes : mapped.windowIds.bytes
    let at = try #require(data.firstRange(of: Data(section))).lowerBound
    var damaged = data
    damaged.replaceSubrange(at..<at + 4, with: [0, 0, 0, damagingTheCount ? 0 : 0x7F])
    if damagingTheCount { damaged.replaceSubrange(at + 4..<at + 8, with: [0, 0, 0, 0]) }
    let base = try IndexedPartial(file: pinnedBytes(damaged))
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
