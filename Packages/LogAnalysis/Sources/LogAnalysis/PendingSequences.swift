/// Sequences found but not yet counted, gathered by shard. A shard's sequences are counted
/// together once enough have gathered, so its slots can be loaded in order, at the speed
/// memory streams, instead of one random cache miss per sequence. Scratch space for reading
/// one part of a log.
final class PendingSequences {
  /// How many sequences a shard gathers, by default, before it is due to be counted.
  static let defaultThreshold = 2048

  /// How many sequences a shard gathers before it is due to be counted.
  let threshold: Int
  /// Room per shard: the threshold, and a batch of visits more.
  private let room: Int

  /// The ids of each sequence (the pages, then the client).
  let width: Int
  private let ids: UnsafeMutableBufferPointer<Int32>
  private let hashes: UnsafeMutableBufferPointer<UInt64>
  private let counts: UnsafeMutableBufferPointer<Int>

  init(width: Int, threshold: Int = defaultThreshold) {
    self.width = width
    self.threshold = threshold
    room = threshold + VisitBatch.capacity
    ids = .allocate(capacity: WindowTable.shardCount * room * width)
    hashes = .allocate(capacity: WindowTable.shardCount * room)
    counts = .allocate(capacity: WindowTable.shardCount)
    counts.initialize(repeating: 0)
  }

  deinit {
    ids.deallocate()
    hashes.deallocate()
    counts.deallocate()
  }

  /// Holds the sequence at `window`, whose hash is `hash`; returns whether its shard is due.
  /// A due shard still has room for a batch of visits more.
  func append(_ window: UnsafePointer<Int32>, hash: UInt64) -> Bool {
    let shard = WindowTable.shard(of: hash)
    let index = shard * room + counts[shard]
    let target = ids.baseAddress! + index * width
    for offset in 0..<width { target[offset] = window[offset] }
    hashes[index] = hash
    counts[shard] += 1
    return counts[shard] >= threshold
  }

  /// Whether `shard` holds enough sequences to be counted.
  func isDue(_ shard: Int) -> Bool { counts[shard] >= threshold }

  /// Calls `body` with the sequences held for `shard`, `width` ids each, and their hashes;
  /// then empties it.
  func drain(
    _ shard: Int, _ body: (UnsafePointer<Int32>, UnsafeBufferPointer<UInt64>) -> Void
  ) {
    let start = shard * room
    body(
      ids.baseAddress! + start * width,
      UnsafeBufferPointer(rebasing: hashes[start..<start + counts[shard]]))
    counts[shard] = 0
  }
}
