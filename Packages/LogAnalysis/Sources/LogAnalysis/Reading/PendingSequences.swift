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

  /// The ids of each sequence: its pages, then (when clients count) its client.
  let width: Int
  private let ids: UnsafeMutableBufferPointer<Int32>
  private let counts: UnsafeMutableBufferPointer<Int>

  init(width: Int, threshold: Int = defaultThreshold) {
    self.width = width
    self.threshold = threshold
    room = threshold + VisitBatch.capacity
    ids = .allocate(capacity: WindowTable.shardCount * room * width)
    counts = .allocate(capacity: WindowTable.shardCount)
    counts.initialize(repeating: 0)
  }

  deinit {
    ids.deallocate()
    counts.deallocate()
  }

  /// Holds the sequence at `window` in `shard`; returns whether the shard is due. A due
  /// shard still has room for a batch of visits more. Only the ids are held, not the hash:
  /// the fewer bytes written, the faster.
  func append(_ window: UnsafePointer<Int32>, shard: Int) -> Bool {
    let target = ids.baseAddress! + (shard * room + counts[shard]) * width
    for offset in 0..<width { target[offset] = window[offset] }
    counts[shard] += 1
    return counts[shard] >= threshold
  }

  /// Whether `shard` holds enough sequences to be counted.
  func isDue(_ shard: Int) -> Bool { counts[shard] >= threshold }

  /// Calls `body` with the sequences held for `shard`, `width` ids each, and their number;
  /// then empties it.
  func drain(_ shard: Int, _ body: (UnsafePointer<Int32>, Int) -> Void) {
    body(ids.baseAddress! + shard * room * width, counts[shard])
    counts[shard] = 0
  }
}
