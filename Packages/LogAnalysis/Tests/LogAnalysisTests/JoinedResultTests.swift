import Foundation
import LogAnalysisTestSupport
import Testing

@testable import LogAnalysis

/// Parts of a log, each written with its index, joined where they lie give what their partial
/// results appended in order give.
@Suite struct JoinedResultTests {
  /// `lines` cut at `cuts` (in order) into parts, each analysed on its own.
  private func parts(_ lines: [String], cuts: [Int], options: AnalysisOptions) -> [Partial] {
    zip([0] + cuts, cuts + [lines.count]).map { start, end in
      analyze(lines[start..<end].joined(), options: options, chunks: 2)
    }
  }

  /// The parts appended in order, as `--merge` loads them.
  private func appended(_ parts: [Partial]) -> Partial {
    parts.dropFirst().reduce(into: parts[0]) { $0.append($1) }
  }

  @Test(arguments: 0..<32)
  func givesWhatTheAppendedPartsGive(seed: Int) throws {
    var generator = SplitMix(seed: UInt64(seed) &+ 1000)
    let options = optionsOfEveryKind(seed: seed, &generator)
    let all = indexedTestLines(
      seed: UInt64(seed), count: 300 + Int(generator.next() % 500),
      clients: seed % 3 == 0 ? 5 : 150, pages: seed % 4 == 1 ? 60 : 9)
    // One to six parts, some of them empty.
    let cuts = (0..<Int(generator.next() % 6)).map { _ in
      Int(generator.next() % UInt64(all.count + 1))
    }.sorted()
    let parts = parts(all, cuts: cuts, options: options)
    let joined = try JoinedResult(parts: parts.map(indexedPartial))
    let top = 1 + Int(generator.next() % 5)
    #expect(resultSummary(joined, top: top) == resultSummary(appended(parts), top: top))
  }

  /// Parts read in other formats, an empty first part, a first part of junk, empty parts
  /// only, one part: the format and the counts come out as `Partial.append` gives them.
  @Test func theFormatAndCountsSumAsAppendSumsThem() throws {
    let visits = indexedTestLines(seed: 9, count: 200)
    let common = visits.map {
      $0.replacingOccurrences(of: #" "[^"]*" "[^"]*"$"#, with: "", options: .regularExpression)
    }
    let options = AnalysisOptions(sessionGap: 600)
    for texts in [
      ["", visits.joined()], ["garbage line\n", visits.joined()],
      [visits.joined(), common.joined()], ["", "", common.joined(), visits.joined()],
      ["", ""], [visits.joined()],
    ] {
      let parts = texts.map { analyze($0, options: options) }
      let joined = try JoinedResult(parts: parts.map(indexedPartial))
      #expect(resultSummary(joined, top: 3) == resultSummary(appended(parts), top: 3))
    }
  }

  /// Clients whose names' hashes are the same (here as hashes cut to their first six bits
  /// make them, in every part alike) are told apart, and matched across the parts, by name.
  @Test func clientsOfOneHashAreToldApartByName() throws {
    let lines = indexedTestLines(seed: 11, count: 600, clients: 150, pages: 9)
    let parts = parts(lines, cuts: [200, 400], options: AnalysisOptions())
    let cut = try parts.map { part in
      var data = part.serialized(indexed: true)
      let original = try indexedPartial(part)
      try withExtendedLifetime(original) {
        let hashes = original.clientHashes
        let at = try #require(data.firstRange(of: Data(hashes.bytes))).lowerBound
        for index in 0..<hashes.count {
          let hash = (hashes[index] & ~(1 << 58 - 1)).littleEndian
          withUnsafeBytes(of: hash) {
            data.replaceSubrange(at + 8 * index..<at + 8 * (index + 1), with: $0)
          }
        }
      }
      return try IndexedPartial(file: pinnedBytes(data))
    }
    for part in cut {
      #expect(
        (1..<part.clientCount).contains { part.clientHashes[$0 - 1] == part.clientHashes[$0] })
    }
    let joined = try JoinedResult(parts: cut)
    #expect(resultSummary(joined, top: 3) == resultSummary(appended(parts), top: 3))
  }

  /// A pair of a sequence and a client that names a client past the part's clients is refused
  /// before anything is worked out.
  @Test func aPairNamingAClientOutOfRangeIsRefused() throws {
    let partial = analyze(
      indexedTestLines(seed: 4, count: 300).joined(), options: AnalysisOptions(uniqueClients: true))
    let data = partial.serialized(indexed: true)
    let section = try indexedPartial(partial).pairIds.bytes
    let at = try #require(data.firstRange(of: Data(section))).lowerBound
    let client = at + 4 * partial.options.length
    var damaged = data
    damaged.replaceSubrange(client..<client + 4, with: [0xff, 0xff, 0, 0])
    #expect(throws: PartialFileError(description: "a sequence of the wrong form")) {
      try JoinedResult(parts: [try IndexedPartial(file: pinnedBytes(damaged))])
    }
  }
}
