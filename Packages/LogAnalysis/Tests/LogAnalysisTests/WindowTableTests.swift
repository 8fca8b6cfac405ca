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
}
