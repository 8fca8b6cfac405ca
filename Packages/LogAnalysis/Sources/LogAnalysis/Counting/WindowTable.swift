import CPrefetch

/// Counts sequences of ids of one width. The table is split into shards by the top bits of
/// each sequence's hash, so two tables whose hashes agree merge shard by shard in parallel.
/// A slot holds the ids, the count and the hash's low bits together, so a lookup touches one
/// cache line and growing reads no other memory.
struct WindowTable: Sendable {
  static let shardBits = 8
  static let shardCount = 1 << shardBits

  let width: Int
  var shards: [Shard]

  init(width: Int) {
    self.width = width
    shards = Array(repeating: Shard(width: width), count: Self.shardCount)
  }

  /// The shard of a sequence with `hash`.
  static func shard(of hash: UInt64) -> Int { Int(hash >> (64 - shardBits)) }

  /// The indexes of `hashes` gathered by shard, in order within each (a counting sort): the
  /// sequences of shard `s` are `order[starts[s]..<starts[s + 1]]`.
  static func byShard(_ hashes: [UInt64]) -> (starts: [Int], order: [Int]) {
    var starts = [Int](repeating: 0, count: shardCount + 1)
    for hash in hashes { starts[shard(of: hash) + 1] += 1 }
    for shard in 0..<shardCount { starts[shard + 1] += starts[shard] }
    var order = [Int](repeating: 0, count: hashes.count)
    var ends = starts
    for (index, hash) in hashes.enumerated() {
      order[ends[shard(of: hash)]] = index
      ends[shard(of: hash)] += 1
    }
    return (starts, order)
  }

  var count: Int { shards.reduce(0) { $0 + $1.count } }
  /// The sum of all counts.
  var total: Int { shards.reduce(0) { $0 + $1.total } }

  /// Adds `amount` (at least 1) to the sequence at `ids` (`width` of them), whose hash is
  /// `hash`; returns whether it is new.
  @discardableResult
  mutating func add(_ ids: UnsafePointer<Int32>, hash: UInt64, amount: Int = 1) -> Bool {
    shards[Self.shard(of: hash)].add(ids, hash: hash, amount: amount)
  }

  /// Calls `body` with the ids and the count of every sequence.
  func forEachEntry(_ body: (UnsafeBufferPointer<Int32>, Int) -> Void) {
    for shard in shards { shard.forEachEntry(body) }
  }
}

/// One shard of a `WindowTable`: open addressing over slots of `width` ids, a count and the low
/// 32 bits of the hash, which place the slot (a shard holds fewer than 2³² slots).
struct Shard: Sendable {
  let width: Int
  private(set) var count = 0
  /// The sum of all counts.
  private(set) var total = 0
  /// `width + 2` words per slot: the ids, the count (0 when the slot is empty, negative for
  /// counts beyond `Int32.max`, kept in `large` at index `-1 - value`), the hash's low bits.
  private var words: [Int32]
  private var large: [Int] = []
  private var capacity = 16

  init(width: Int) {
    self.width = width
    words = Array(repeating: 0, count: capacity * (width + 2))
  }

  @discardableResult
  mutating func add(_ ids: UnsafePointer<Int32>, hash: UInt64, amount: Int) -> Bool {
    let width = self.width
    let stride = width + 2
    let mask = capacity - 1
    total += amount
    // The sequence's slot, or the empty one where it goes.
    let (base, exists) = words.withUnsafeBufferPointer { words in
      var slot = Int(truncatingIfNeeded: hash) & mask
      while true {
        let base = slot * stride
        if words[base + width] == 0 { return (base, false) }
        var same = true
        for index in 0..<width where words[base + index] != ids[index] { same = false }
        if same { return (base, true) }
        slot = (slot + 1) & mask
      }
    }
    if exists {
      setCount(count(words[base + width]) + amount, at: base)
      return false
    }
    words.withUnsafeMutableBufferPointer { words in
      for index in 0..<width { words[base + index] = ids[index] }
      words[base + width + 1] = Int32(truncatingIfNeeded: hash)
    }
    setCount(amount, at: base)
    count += 1
    if count * 10 > capacity * Tuning.windowTableMaxLoadTenths { grow(to: 2 * capacity) }
    return true
  }

  /// Starts loading the slot where a lookup of `hash` begins, and the cache line after it,
  /// where the lookup often goes on.
  @inline(__always)
  func prefetch(hash: UInt64) {
    let slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
    words.withUnsafeBufferPointer {
      let start = $0.baseAddress! + slot * (width + 2)
      CPrefetch.prefetch(start)
      CPrefetch.prefetch(start + 16)
    }
  }

  /// Starts loading every slot, in order, when they span at most `lines` cache lines.
  func load(ifAtMost lines: Int) {
    let wordsPerLine = 16
    guard words.count <= lines * wordsPerLine else { return }
    words.withUnsafeBufferPointer { words in
      for index in Swift.stride(from: 0, to: words.count, by: wordsPerLine) {
        CPrefetch.prefetch(words.baseAddress! + index)
      }
    }
  }

  func forEachEntry(_ body: (UnsafeBufferPointer<Int32>, Int) -> Void) {
    forEachHashedEntry { ids, count, _ in body(ids, count) }
  }

  /// Calls `body` with the ids, the count and the low 32 bits of the hash of every sequence.
  func forEachHashedEntry(_ body: (UnsafeBufferPointer<Int32>, Int, UInt32) -> Void) {
    let stride = width + 2
    words.withUnsafeBufferPointer { words in
      for base in Swift.stride(from: 0, to: words.count, by: stride) where words[base + width] != 0
      {
        body(
          UnsafeBufferPointer(rebasing: words[base..<base + width]), count(words[base + width]),
          UInt32(bitPattern: words[base + width + 1]))
      }
    }
  }

  /// Writes the ids of every sequence to `ids` and its count to `counts`, in slot order.
  func copyEntries(ids: UnsafeMutablePointer<Int32>, counts: UnsafeMutablePointer<Int64>) {
    let stride = width + 2
    var entry = 0
    words.withUnsafeBufferPointer { words in
      for base in Swift.stride(from: 0, to: words.count, by: stride) where words[base + width] != 0
      {
        (ids + entry * width).update(from: words.baseAddress! + base, count: width)
        counts[entry] = Int64(count(words[base + width]))
        entry += 1
      }
    }
  }

  @inline(__always)
  private func count(_ value: Int32) -> Int {
    value > 0 ? Int(value) : large[-1 - Int(value)]
  }

  @inline(__always)
  private mutating func setCount(_ newCount: Int, at base: Int) {
    let value = words[base + width]
    if value < 0 {
      large[-1 - Int(value)] = newCount
    } else if newCount > Int(Int32.max) {
      large.append(newCount)
      words[base + width] = Int32(-large.count)
    } else {
      words[base + width] = Int32(newCount)
    }
  }

  /// Makes room for `total` sequences without growing again.
  mutating func reserve(_ total: Int) {
    var fitting = capacity
    while total * 10 > fitting * Tuning.windowTableMaxLoadTenths { fitting *= 2 }
    if fitting > capacity { grow(to: fitting) }
  }

  /// Moves every slot to a table of `newCapacity`, placed by the hash bits it holds.
  private mutating func grow(to newCapacity: Int) {
    let width = self.width
    let stride = width + 2
    let mask = newCapacity - 1
    var fresh = [Int32](repeating: 0, count: newCapacity * stride)
    fresh.withUnsafeMutableBufferPointer { fresh in
      words.withUnsafeBufferPointer { old in
        for base in Swift.stride(from: 0, to: old.count, by: stride) where old[base + width] != 0 {
          var slot = Int(UInt32(bitPattern: old[base + width + 1])) & mask
          while fresh[slot * stride + width] != 0 { slot = (slot + 1) & mask }
          for index in 0..<stride { fresh[slot * stride + index] = old[base + index] }
        }
      }
    }
    words = fresh
    capacity = newCapacity
  }
}
