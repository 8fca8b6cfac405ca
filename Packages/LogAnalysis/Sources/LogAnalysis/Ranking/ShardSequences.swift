/// Sequences of one shard: their pages (`length` each), counts and hashes.
struct ShardSequences {
  var ids: [Int32] = []
  var counts: [Int] = []
  var hashes: [UInt64] = []
}

extension ShardSequences {
  /// The spanning sequences (`length` pages and a client each) of each shard.
  static func byShard(_ spanning: [Int32], length: Int, pages: Interner) -> [[Int32]] {
    var shards = [[Int32]](repeating: [], count: WindowTable.shardCount)
    pages.hashes.withUnsafeBufferPointer { hashes in
      spanning.withUnsafeBufferPointer { spanning in
        for start in stride(from: 0, to: spanning.count, by: length + 1) {
          let hash = Hashing.sequence(spanning.baseAddress! + start, count: length, hashes: hashes)
          shards[WindowTable.shard(of: hash)] += spanning[start...start + length]
        }
      }
    }
    return shards
  }

  /// `sequences` (`width` ids each, the first `length` of them pages) in the order of their
  /// hashes (the sequence's hash, or `hash` of it and the client after it), equal ones
  /// counted once with their counts added.
  static func combined(
    _ sequences: ShardSequences, width: Int, pages: Interner, length: Int,
    hash: ((UInt64, Int32) -> UInt64)? = nil
  ) -> ShardSequences {
    let count = sequences.counts.count
    var hashes = [UInt64]()
    hashes.reserveCapacity(count)
    var combined = ShardSequences()
    combined.ids.reserveCapacity(sequences.ids.count)
    combined.counts.reserveCapacity(count)
    combined.hashes.reserveCapacity(count)
    pages.hashes.withUnsafeBufferPointer { pageHashes in
      sequences.ids.withUnsafeBufferPointer { ids in
        for index in 0..<count {
          let at = ids.baseAddress! + index * width
          let sequence = Hashing.sequence(at, count: length, hashes: pageHashes)
          hashes.append(hash?(sequence, at[length]) ?? sequence)
        }
        var run = 0
        for index in hashes.withUnsafeBufferPointer({ Hashing.order($0) }) {
          let hash = hashes[Int(index)]
          let at = ids.baseAddress! + Int(index) * width
          if combined.hashes.last != hash { run = combined.counts.count }
          // The same sequence is among those of the same hash before it: nearly always none.
          var same = run
          while same < combined.counts.count
            && !(0..<width).allSatisfy({ combined.ids[same * width + $0] == at[$0] })
          {
            same += 1
          }
          if same < combined.counts.count {
            combined.counts[same] += sequences.counts[Int(index)]
          } else {
            combined.ids.append(contentsOf: UnsafeBufferPointer(start: at, count: width))
            combined.counts.append(sequences.counts[Int(index)])
            combined.hashes.append(hash)
          }
        }
      }
    }
    return combined
  }
}

extension WordView<UInt64> {
  /// Where the hashes of a `WindowTable` shard lie, in hashes in order.
  func range(ofShard shard: Int) -> Range<Int> {
    func start(_ shard: Int) -> Int {
      var (low, high) = (0, count)
      while low < high {
        let middle = (low + high) / 2
        if WindowTable.shard(of: self[middle]) < shard { low = middle + 1 } else { high = middle }
      }
      return low
    }
    let (lower, upper) = (start(shard), start(shard + 1))
    return lower..<max(lower, upper)
  }
}
