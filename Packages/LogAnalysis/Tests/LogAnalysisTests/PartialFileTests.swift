import Foundation
import LogAnalysisTestSupport
import Testing

@testable import LogAnalysis

@Suite struct PartialFileTests {
  private let visits = (0..<300).map { index in
    ("c\(index % 7)", "/p\((index * 7919) % 11)")
  }

  @Test(arguments: [false, true])
  func serializedShardsMergeToOnePass(unique: Bool) throws {
    let options = AnalysisOptions(length: 3, uniqueClients: unique)
    let whole = analyze(log(visits), options: options)
    var merged: Partial?
    for start in stride(from: 0, to: visits.count, by: 50) {
      let shard = analyze(log(Array(visits[start..<start + 50])), options: options)
      let copy = try Partial(serialized: shard.serialized())
      if merged == nil { merged = copy } else { merged!.append(copy) }
    }
    #expect(ranked(try #require(merged)) == ranked(whole))
    #expect(merged?.lines == whole.lines)
    #expect(merged?.clientCount == whole.clientCount)
  }

  /// Handed on in pieces (the large tables where they lie, the rest gathered), a partial of
  /// every kind of options is the same bytes as `serialized(indexed:threads:)`.
  @Test(arguments: 0..<8)
  func servedInPiecesIsTheSameBytes(seed: Int) {
    var generator = SplitMix(seed: UInt64(seed) &+ 500)
    let options = optionsOfEveryKind(seed: seed, &generator)
    // Enough clients and pages that some tables pass the writer's 64 KiB piece.
    let lines = indexedTestLines(
      seed: UInt64(seed), count: 15_000, clients: 3000, pages: seed % 2 == 0 ? 60 : 9)
    let partial = analyze(lines.joined(), options: options, chunks: 3)
    for (indexed, threads) in [(false, 1), (true, 1), (true, 4)] {
      var pieces: [Data] = []
      partial.serialize(indexed: indexed, threads: threads) { pieces.append(Data($0)) }
      let whole = partial.serialized(indexed: indexed, threads: threads)
      #expect(pieces.reduce(Data(), +) == whole)
      // Not all gathered, but small writes are: a short piece is followed by a long one.
      #expect(pieces.count > 1 || whole.count <= 1 << 17)
      #expect(zip(pieces, pieces.dropFirst()).allSatisfy { max($0.count, $1.count) >= 1 << 16 })
    }
  }

  @Test func roundTripsOptionsAndCounts() throws {
    let options = AnalysisOptions(length: 4, stripQuery: true, excludeStatic: true)
    let partial = analyze(log(visits + [("c1", "/style.css")]) + "garbage\n", options: options)
    let copy = try Partial(serialized: partial.serialized())
    #expect(copy.options == options)
    #expect(copy.malformedLines == 1)
    #expect(copy.filteredLines == 1)
    #expect(copy.formatName == "combined")
    #expect(ranked(copy) == ranked(partial))
  }

  @Test func rejectsOtherAndDamagedFiles() throws {
    let data = analyze(log(visits)).serialized()
    #expect(throws: PartialFileError.self) { try Partial(serialized: Data("hello".utf8)) }
    #expect(throws: PartialFileError.self) { try Partial(serialized: data.dropLast(3)) }
    var damaged = data
    damaged[damaged.count - 12] ^= 0xFF
    #expect(throws: PartialFileError.self) { try Partial(serialized: damaged) }
  }

  @Test func refusesLineCountsThatCouldOverflowAMerge() throws {
    let partial = analyze(log(visits) + "garbage\n")
    let data = partial.serialized()
    func word(_ value: Int) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
    // The line counts are written as two words: lines, then malformed lines.
    let counts = try #require(data.firstRange(of: word(301) + word(1)))
    for (lines, malformed) in [(Int.max, 1), (Partial.maxLines + 1, 1), (301, 302)] {
      var damaged = data
      damaged.replaceSubrange(counts, with: word(lines) + word(malformed))
      #expect(throws: PartialFileError.self) { try Partial(serialized: damaged) }
    }
    var largest = data
    largest.replaceSubrange(counts, with: word(Partial.maxLines) + word(1))
    #expect(try Partial(serialized: largest).lines == Partial.maxLines)
  }

  @Test func keepsWhereItCameFrom() throws {
    var partial = analyze(log(visits))
    #expect(try Partial(serialized: partial.serialized()).source == nil)
    partial.source = PartialSource(input: "shard1.log", bytes: 1234, run: 42)
    #expect(try Partial(serialized: partial.serialized()).source == partial.source)
  }

  /// A partial of format 12 (fetcher 6.x) has no clients panel counts of the visits that named
  /// no page: it reads as having none, its clients without a page still counted.
  @Test func aFormat12PartialReadsWithoutThePagelessClientsPanel() throws {
    var options = AnalysisOptions(length: 2)
    options.panels = [.clients]
    let text =
      log([("c1", "/a"), ("c1", "/b")])
      + #"9.9.9.9 - - [10/Oct/2023:13:55:36 +0000] "-" 400 0 "-" "-""# + "\n"
    let partial = analyze(text, options: options)
    #expect(partial.panels(top: 0).clients.map(\.name) == ["c1", "9.9.9.9"])
    let current = partial.serialized()
    // The format's name, and the two tables at the end: one client's hits, then bytes.
    #expect(current.starts(with: Data("fetcher-partial-13\n".utf8)))
    var old = Data("fetcher-partial-12\n".utf8)
    old.append(current.dropFirst(19).dropLast(2 * 16))
    let read = try Partial(serialized: old)
    #expect(read.clientsWithoutPage == 1)
    #expect(
      read.panels(top: 0).clients == [
        PanelRow(name: "c1", count: 2, bytes: partial.panels(top: 0).clients[0].bytes)
      ])
  }

  @Test func refusesResultsOfAnotherVersion() throws {
    var old = Data("fetcher-partial-2\n".utf8)
    old.append(analyze(log(visits)).serialized().dropFirst(18))
    #expect(
      throws: PartialFileError(
        description: "a partial result of another fetcher version: analyse its log again")
    ) {
      try Partial(serialized: old)
    }
  }

  @Test func sourcesThatWouldCountTheSameLinesTwiceClash() {
    let shard = PartialSource(input: "a.log", bytes: 100, run: 1)
    #expect(shard.clash(with: shard) == "the same partial result")
    #expect(
      shard.clash(with: PartialSource(input: "a.log", bytes: 100, run: 2))
        == "partial results of the same input, a.log (100 bytes)")
    #expect(shard.clash(with: PartialSource(input: "a.log", bytes: 101, run: 2)) == nil)
    #expect(shard.clash(with: PartialSource(input: "b.log", bytes: 100, run: 2)) == nil)
    let piped = PartialSource(input: "-", bytes: 100, run: 3)
    #expect(piped.clash(with: PartialSource(input: "-", bytes: 100, run: 4)) == nil)
  }

  /// Splits of one file (`--byte-range`) whose ranges overlap would count the lines that
  /// begin in both twice; those that meet or lie apart, or are of other files, may be merged.
  @Test func splitsThatOverlapClash() throws {
    let split = PartialSource.split(of: "logs/a b.log", range: 100..<200, bytes: 100)
    #expect(split.input == "logs/a b.log bytes 100-200")
    let (file, range) = try #require(split.split)
    #expect(file == "logs/a b.log" && range == 100..<200)
    #expect(
      split.clash(with: .split(of: "logs/a b.log", range: 150..<300, bytes: 150))
        == "splits of logs/a b.log whose byte ranges overlap")
    #expect(split.clash(with: .split(of: "logs/a b.log", range: 0..<101, bytes: 101)) != nil)
    #expect(split.clash(with: .split(of: "logs/a b.log", range: 200..<300, bytes: 100)) == nil)
    #expect(split.clash(with: .split(of: "logs/a b.log", range: 0..<100, bytes: 100)) == nil)
    #expect(split.clash(with: .split(of: "logs/a b.log", range: 120..<120, bytes: 0)) == nil)
    #expect(split.clash(with: .split(of: "b.log", range: 100..<200, bytes: 100)) == nil)
    for input in ["a.log", "-", "a.log bytes", "a.log bytes 5", "a.log bytes 9-5", "x bytes -1-5"] {
      #expect(PartialSource(input: input, bytes: 1).split == nil)
    }
  }

  @Test func aClientIDPastTheClientsIsRefused() throws {
    // Found by Fuzz/PartialFileTarget.swift: a --unique-clients partial whose sequence names
    // client 2 of 2 was read, and merging it read past the clients (heap-buffer-overflow).
    var partial = analyze(
      log([("10.0.0.1", "/a"), ("10.0.0.1", "/b"), ("10.0.0.1", "/c"), ("10.0.0.2", "/d")]),
      options: AnalysisOptions(uniqueClients: true))
    // /a /b /c by client 2, past the two there are.
    partial.pairs.shards[0].add([0, 1, 2, 2], hash: 0, amount: 1)
    #expect(throws: PartialFileError(description: "a sequence of the wrong form")) {
      try Partial(serialized: partial.serialized())
    }
  }
}

/// Partials written to crash a merge: each number is in range alone, but not together.
@Suite struct CraftedPartialTests {
  private let visits = ["/a", "/b", "/c", "/d", "/e"].map { ("c1", $0) }

  private func refused(_ partial: Partial, saying words: String) {
    #expect {
      try Partial(serialized: partial.serialized())
    } throws: { error in
      "\(error)".contains(words)
    }
  }

  @Test func countsThatAddUpToMoreThanTheLinesAreRefused() throws {
    var partial = analyze(log(visits))
    // /c /b /a, a sequence the log does not hold, counted as often as there are lines.
    let added = partial.add([2, 1, 0, 0], amount: partial.lines)
    #expect(added)
    refused(partial, saying: "add up to more than the lines")
  }

  @Test func moreLinesLeftOutThanReadAreRefused() throws {
    var partial = analyze(log(visits))
    partial.filteredLines = partial.lines + 1
    refused(partial, saying: "the line counts are out of range")
  }

  @Test func entryCountsThatAddUpToMoreThanTheLinesAreRefused() throws {
    var partial = analyze(log(visits), options: AnalysisOptions(sessionGap: 60))
    partial.clients.ends.entries[0] = partial.lines
    partial.clients.ends.entries[1] = partial.lines
    refused(partial, saying: "an entry or exit count is out of range")
  }

  /// Found by Fuzz/PartialFileTarget.swift: a path's entry page written as a negative number
  /// beyond 32 bits trapped as it was read.
  @Test func anEntryPageBelowZeroIsRefused() throws {
    var partial = analyze(log(visits), options: AnalysisOptions(sessionGap: 60))
    partial.clients.ends.entries = [3: 1]
    let data = partial.serialized()
    let pair = [2, 3, 1].flatMap { withUnsafeBytes(of: UInt64($0).littleEndian, Array.init) }
    let at = try #require(data.firstRange(of: pair)).lowerBound + 8
    var damaged = data
    damaged.replaceSubrange(
      at..<at + 8, with: withUnsafeBytes(of: Int.min.littleEndian, Array.init))
    #expect {
      try Partial(serialized: damaged)
    } throws: { error in
      "\(error)" == "an entry or exit count is out of range"
    }
  }

  @Test(arguments: [(Int64.min, Int64.max), (0, Int64.max), (5, 4)] as [(Int64, Int64)])
  func clientTimesOutOfRangeAreRefused(first: Int64, last: Int64) throws {
    var partial = analyze(log(visits), options: AnalysisOptions(sessionGap: 60))
    partial.clients.times[0] = first
    partial.clients.times[1] = last
    refused(partial, saying: "a client's times are out of range")
  }

  /// The hash and shard of the sequence of `ids` in `partial`.
  private func place(_ ids: [Int32], in partial: Partial) -> (hash: UInt64, shard: Int) {
    let hash = partial.pages.hashes.withUnsafeBufferPointer { hashes in
      Hashing.sequence(ids, count: ids.count, hashes: hashes)
    }
    return (hash, WindowTable.shard(of: hash))
  }

  /// The ids of the first sequence of `partial`.
  private func firstSequence(of partial: Partial) -> [Int32] {
    var ids: [Int32] = []
    partial.windows.forEachEntry { entry, _ in if ids.isEmpty { ids = Array(entry) } }
    return ids
  }

  @Test func aSequenceBeforeItsShardIsRefused() throws {
    // One sequence, /a /b /c (ids 0, 1, 2), and another written in shard 0, before it,
    // though the other's own shard comes after it.
    var partial = analyze(log(["/a", "/b", "/c"].map { ("c1", $0) }) + "garbage\n")
    let (_, shard) = place([0, 1, 2], in: partial)
    let other = [[1, 0, 2], [2, 1, 0], [0, 0, 0], [1, 1, 1], [2, 2, 2], [0, 2, 1]]
      .first { place($0, in: partial).shard > shard }
    let ids = try #require(other)
    try #require(shard > 0)
    partial.windows.shards[0].add(ids, hash: 0, amount: 1)
    refused(partial, saying: "a sequence out of its place")
  }

  @Test func aRepeatedSequenceIsRefused() throws {
    var partial = analyze(log(visits))
    let ids = firstSequence(of: partial)
    let (hash, shard) = place(ids, in: partial)
    // Looked for from the next slot, the sequence is not found there, and is added again.
    let added = partial.windows.shards[shard].add(ids, hash: hash &+ 1, amount: 1)
    #expect(added)
    refused(partial, saying: "a repeated sequence")
  }

  @Test func aTimeRangeOutOfRangeIsRefused() throws {
    var partial = analyze(log(visits))
    partial.timeRange = Int64.min...Int64.max
    refused(partial, saying: "the time range is out of range")
  }

  /// Found by fuzzing (Fuzz/run.sh PartialFile): an offset of Int64.min trapped in abs().
  @Test func aTimeZoneOffsetOutOfRangeIsRefused() throws {
    for offsets in [
      TimeRangeOffsets(earliest: .min, latest: 0), TimeRangeOffsets(earliest: 0, latest: .min),
      TimeRangeOffsets(earliest: 86_401, latest: 0), TimeRangeOffsets(earliest: 0, latest: .max),
    ] {
      var partial = analyze(log(visits))
      partial.timeRangeOffsets = offsets
      refused(partial, saying: "a time zone offset is out of range")
    }
  }
}
