/// Fast, well-mixed 64-bit hashes for the tables of the analysis.
enum Hashing {
  /// The finaliser of MurmurHash3: every input bit reaches every output bit.
  @inline(__always)
  static func mix(_ value: UInt64) -> UInt64 {
    var hash = value
    hash ^= hash >> 33
    hash = hash &* 0xff51_afd7_ed55_8ccd
    hash ^= hash >> 33
    hash = hash &* 0xc4ce_b9fe_1a85_ec53
    hash ^= hash >> 33
    return hash
  }

  /// A hash of `bytes`, eight at a time; the last word overlaps the one before it, so no
  /// byte is read alone.
  @inline(__always)
  static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    let count = bytes.count
    var hash = UInt64(count) &* 0x9e37_79b9_7f4a_7c15
    func word(_ offset: Int) -> UInt64 {
      bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }
    func half(_ offset: Int) -> UInt64 {
      UInt64(bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    let last: UInt64
    if count >= 8 {
      var offset = 0
      while offset + 8 < count {
        hash = (hash ^ word(offset)) &* 0x9e37_79b9_7f4a_7c15
        hash ^= hash >> 31
        offset += 8
      }
      last = word(count - 8)
    } else if count >= 4 {
      last = half(0) | half(count - 4) << 32
    } else if count > 0 {
      last = UInt64(bytes[0]) | UInt64(bytes[count / 2]) << 8 | UInt64(bytes[count - 1]) << 16
    } else {
      last = 0
    }
    return mix(hash ^ last)
  }
}

extension Hashing {
  /// A hash of a sequence of interned strings from the hashes of their bytes, so it is the
  /// same in every partial result whatever ids the strings got there.
  @inline(__always)
  static func sequence(
    _ ids: UnsafePointer<Int32>, count: Int, hashes: UnsafeBufferPointer<UInt64>
  )
    -> UInt64
  {
    sequence(count: count) { hashes[Int(ids[$0])] }
  }

  /// A hash of a sequence of `count` strings, the `index`th of which has the hash
  /// `hash(index)`.
  @inline(__always)
  static func sequence(count: Int, _ hash: (Int) -> UInt64) -> UInt64 {
    var folded: UInt64 = 0x9e37_79b9_7f4a_7c15
    for index in 0..<count {
      folded = (folded ^ hash(index)) &* 0xff51_afd7_ed55_8ccd
      folded = folded << 29 | folded >> 35
    }
    return mix(folded)
  }

  /// A hash of a sequence together with a client, in the same `WindowTable` shard as the
  /// sequence alone.
  @inline(__always)
  static func pair(sequence: UInt64, client: UInt64) -> UInt64 {
    let shardBits = UInt64(WindowTable.shardBits)
    let shard = (sequence >> (64 - shardBits)) << (64 - shardBits)
    return shard | mix(sequence ^ client) >> shardBits
  }
}

/// The hashes of the sequences of one partial result, from the hashes of its strings.
struct SequenceHasher {
  let length: Int
  let pages: UnsafeBufferPointer<UInt64>
  let clients: UnsafeBufferPointer<UInt64>

  /// The hash of the `length` pages at `ids`.
  func sequence(_ ids: UnsafePointer<Int32>) -> UInt64 {
    Hashing.sequence(ids, count: length, hashes: pages)
  }

  /// Calls `body` with the hasher of sequences of `length` over these strings' hashes.
  static func with<Result>(
    length: Int, pages: [UInt64], clients: [UInt64], _ body: (SequenceHasher) -> Result
  ) -> Result {
    pages.withUnsafeBufferPointer { pages in
      clients.withUnsafeBufferPointer { clients in
        body(SequenceHasher(length: length, pages: pages, clients: clients))
      }
    }
  }

  /// The hash of the `length` pages at `ids` and the client after them.
  func pair(_ ids: UnsafePointer<Int32>) -> UInt64 {
    Hashing.pair(sequence: sequence(ids), client: clients[Int(ids[length])])
  }
}

extension Hashing {
  /// The indexes of `hashes` in the order of their hashes (equal ones by index). Sorted as
  /// one word each, the hash's high bits and the index, then the few whose high bits tie put
  /// in order.
  static func order(_ hashes: UnsafeBufferPointer<UInt64>) -> [Int32] {
    guard hashes.count > 1 else { return hashes.isEmpty ? [] : [0] }
    let indexBits = UInt64(max(1, Int.bitWidth - (hashes.count - 1).leadingZeroBitCount))
    let mask: UInt64 = (1 << indexBits) - 1
    var keys = hashes.enumerated().map { $1 & ~mask | UInt64($0) }
    radixSort(&keys)
    var order = keys.map { Int32(truncatingIfNeeded: $0 & mask) }
    // Insertion sort by the whole hash: it moves only the indexes whose high bits tied.
    for position in order.indices.dropFirst() {
      let moving = order[position]
      var at = position
      while at > 0 && hashes[Int(order[at - 1])] > hashes[Int(moving)] {
        order[at] = order[at - 1]
        at -= 1
      }
      order[at] = moving
    }
    return order
  }
}

extension Hashing {
  /// Sorts `keys` a byte at a time, the lowest first, each byte's pass skipped when all keys
  /// share it.
  static func radixSort(_ keys: inout [UInt64]) {
    guard keys.count > 64 else { return keys.sort() }
    var other = [UInt64](repeating: 0, count: keys.count)
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 256) { places in
      for shift in stride(from: UInt64(0), to: 64, by: 8) {
        places.initialize(repeating: 0)
        for key in keys { places[Int(key >> shift & 0xFF)] += 1 }
        if places.contains(keys.count) { continue }
        var start = 0
        for byte in 0..<256 {
          let count = places[byte]
          places[byte] = start
          start += count
        }
        keys.withUnsafeBufferPointer { keys in
          other.withUnsafeMutableBufferPointer { other in
            for key in keys {
              let byte = Int(key >> shift & 0xFF)
              other[places[byte]] = key
              places[byte] += 1
            }
          }
        }
        swap(&keys, &other)
      }
    }
  }
}
