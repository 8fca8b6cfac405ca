import Testing

@testable import LogAnalysis

@Suite struct WindowTableTests {
  /// A hash that spreads sequences over the shards and the slots.
  private func hash(_ ids: UnsafePointer<Int32>) -> UInt64 {
    Hashing.mix(UInt64(UInt32(bitPattern: ids[0])) << 32 | UInt64(UInt32(bitPattern: ids[1])))
  }

  private func add(_ ids: [Int32], amount: Int = 1, to table: inout WindowTable) -> Bool {
    ids.withUnsafeBufferPointer { ids in
      table.add(ids.baseAddress!, hash: hash(ids.baseAddress!), amount: amount)
    }
  }

  private func counts(_ table: WindowTable) -> [[Int32]: Int] {
    var counts: [[Int32]: Int] = [:]
    table.forEachEntry { counts[Array($0)] = $1 }
    return counts
  }

  @Test func countsEverySequenceThroughGrowth() {
    var table = WindowTable(width: 2)
    for round in 1...3 {
      for first in Int32(0)..<100 {
        for second in Int32(0)..<50 {
          #expect(add([first, second], to: &table) == (round == 1))
        }
      }
    }
    #expect(table.count == 5000)
    #expect(table.total == 15000)
    #expect(counts(table).count == 5000)
    #expect(counts(table).values.allSatisfy { $0 == 3 })
  }

  @Test func countsBeyondInt32AreKeptWhole() {
    var table = WindowTable(width: 2)
    let big = Int(Int32.max)
    _ = add([1, 2], amount: big, to: &table)
    _ = add([1, 2], amount: 5, to: &table)
    _ = add([3, 4], amount: 7, to: &table)
    _ = add([3, 4], amount: big, to: &table)
    _ = add([3, 4], amount: big, to: &table)
    #expect(counts(table) == [[1, 2]: big + 5, [3, 4]: 2 * big + 7])
  }

  @Test func byShardGathersEachShardsIndexesInOrder() {
    let hashes = (0..<3000).map { Hashing.mix(UInt64($0)) }
    let (starts, order) = WindowTable.byShard(hashes)
    #expect(starts.count == WindowTable.shardCount + 1)
    #expect(starts.first == 0 && starts.last == hashes.count)
    #expect(order.sorted() == Array(hashes.indices))
    for shard in 0..<WindowTable.shardCount {
      let indexes = order[starts[shard]..<starts[shard + 1]]
      #expect(indexes.allSatisfy { WindowTable.shard(of: hashes[$0]) == shard })
      #expect(indexes.elementsEqual(indexes.sorted()))
    }
  }
}
