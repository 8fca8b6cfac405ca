/// Sequences found but not yet counted, gathered by shard. A shard's sequences are counted
/// together once enough have gathered, so its slots can be loaded in order, at the speed
/// memory streams, or each fetched ahead of its turn, instead of one waited-for cache miss
/// per sequence. Scratch space for reading one part of a log.
final class PendingSequences {
  /// How many sequences a shard gathers, by default, before it is due to be counted.
  static let defaultThreshold = 2048

  /// How many sequences a shard gathers before it is due to be counted.
  let threshold: Int
  /// Room per shard: the threshold, and a batch of visits more.
  private let room: Int

  /// The ids of each sequence: its pages, then (when clients count) its client.
  let width: Int
  /// Whether a record holds a pair's hash too (when clients count).
  let pairs: Bool
  /// The words of a record: the ids, the low half of the sequence's hash, then (with
  /// `pairs`) the low half of the pair's. The hashes are kept so that counting loads no
  /// page's hash again (with many pages, they are not cached).
  let stride: Int
  private let records: UnsafeMutableBufferPointer<Int32>
  private let counts: UnsafeMutableBufferPointer<Int>

  init(width: Int, pairs: Bool, threshold: Int = defaultThreshold) {
    self.width = width
    self.pairs = pairs
    stride = width + (pairs ? 2 : 1)
    self.threshold = threshold
    room = threshold + VisitBatch.capacity
    records = .allocate(capacity: WindowTable.shardCount * room * stride)
    counts = .allocate(capacity: WindowTable.shardCount)
    counts.initialize(repeating: 0)
  }

  deinit {
    records.deallocate()
    counts.deallocate()
  }

  /// Holds the sequence at `window`, whose hash is `hash` (and, with `pairs`, that of it and
  /// its client `pairHash`); returns whether its shard is due. A due shard still has room
  /// for a batch of visits more.
  @inline(__always)
  func append(_ window: UnsafePointer<Int32>, hash: UInt64, pairHash: UInt64) -> Bool {
    let shard = WindowTable.shard(of: hash)
    let target = records.baseAddress! + (shard * room + counts[shard]) * stride
    for offset in 0..<width { target[offset] = window[offset] }
    target[width] = Int32(truncatingIfNeeded: hash)
    if pairs { target[width + 1] = Int32(truncatingIfNeeded: pairHash) }
    counts[shard] += 1
    return counts[shard] >= threshold
  }

  /// Whether `shard` holds enough sequences to be counted.
  func isDue(_ shard: Int) -> Bool { counts[shard] >= threshold }

  /// Calls `body` with the records held for `shard`, `stride` words each, and their number;
  /// then empties it.
  func drain(_ shard: Int, _ body: (UnsafePointer<Int32>, Int) -> Void) {
    body(records.baseAddress! + shard * room * stride, counts[shard])
    counts[shard] = 0
  }

  /// The hash of the record at `record`, as far as a shard needs it: its low half (a shard
  /// places its slots by those bits, and knows the high ones).
  @inline(__always)
  func hash(_ record: UnsafePointer<Int32>) -> UInt64 {
    UInt64(UInt32(bitPattern: record[width]))
  }

  /// The pair's hash of the record at `record`, as `hash(_:)` gives the sequence's.
  @inline(__always)
  func pairHash(_ record: UnsafePointer<Int32>) -> UInt64 {
    UInt64(UInt32(bitPattern: record[width + 1]))
  }
}
