import Dispatch
import Synchronization

extension Partial {
  /// Adds the analysis of the lines that follow this part.
  public mutating func append(_ next: Partial) {
    precondition(next.options == options, "partials of different options do not merge")
    lines += next.lines
    malformedLines += next.malformedLines
    let pageMap = pages.intern(contentsOf: next.pages)
    let spanning: [Int32]
    if options.uniqueClients {
      // The pairs name clients, so the clients join first.
      let joined = clients.append(next.clients, pageMap: pageMap)
      spanning = joined.spanning
      mergeSequences(next.pairs, pageMap: pageMap, clientMap: joined.ids)
    } else {
      // The sequences do not name clients, so the clients join on one core while the
      // sequences merge on the others.
      var moving = Clients(keep: clients.keep)
      swap(&moving, &clients)
      let joining = Mutex((clients: consume moving, spanning: [Int32]()))
      mergeSequences(next.windows, pageMap: pageMap, clientMap: []) {
        joining.withLock {
          $0.spanning = $0.clients.append(next.clients, pageMap: pageMap).spanning
        }
      }
      (clients, spanning) = joining.withLock { ($0.clients, $0.spanning) }
    }
    addSpanning(spanning)
  }

  /// Adds the sequences of `source`, another part's table (the pairs with `uniqueClients`),
  /// shard by shard on every core; `alongside` runs on one of them meanwhile.
  private mutating func mergeSequences(
    _ source: WindowTable, pageMap: [Int32], clientMap: [Int32],
    alongside: @Sendable () -> Void = {}
  ) {
    let options = self.options
    let unique = options.uniqueClients
    let width = options.length + 1
    // Without `uniqueClients`, the clients may be joining meanwhile: their hashes are not read.
    let clientHashes = unique ? clients.names.hashes : []
    SequenceHasher.with(length: options.length, pages: pages.hashes, clients: clientHashes) {
      hasher in
      windows.shards.withUnsafeMutableBufferPointer { windowShards in
        pairs.shards.withUnsafeMutableBufferPointer { pairShards in
          // Safe: each iteration changes only its own shard of each table, and the hashes
          // only change when strings are interned, which happens before.
          nonisolated(unsafe) let windowShards = windowShards
          nonisolated(unsafe) let pairShards = pairShards
          nonisolated(unsafe) let hasher = hasher
          DispatchQueue.concurrentPerform(iterations: WindowTable.shardCount + 1) { iteration in
            guard iteration > 0 else { return alongside() }
            let shard = iteration - 1
            var incoming = MergeBatch(width: width, capacity: source.shards[shard].count)
            source.shards[shard].forEachEntry { old, amount in
              incoming.append(amount: amount) { mapped in
                for index in 0..<options.length { mapped[index] = pageMap[Int(old[index])] }
                if unique { mapped[options.length] = clientMap[Int(old[options.length])] }
              }
            }
            if unique {
              pairShards[shard].reserve(
                pairShards[shard].count + incoming.count, rehash: hasher.pair)
            } else {
              windowShards[shard].reserve(
                windowShards[shard].count + incoming.count, rehash: hasher.sequence)
            }
            incoming.tally(
              hasher: hasher, unique: unique, windows: &windowShards[shard],
              pairs: &pairShards[shard])
          }
        }
      }
    }
  }

  /// Adds the sequences that span two parts, `length` pages and the client each.
  private mutating func addSpanning(_ spanning: [Int32]) {
    let width = options.length + 1
    for start in stride(from: 0, to: spanning.count, by: width) {
      _ = add(Array(spanning[start..<start + width]), amount: 1)
    }
  }
}

/// Sequences to add to one shard, held so that each one's slot is loaded ahead of its turn.
private struct MergeBatch {
  let width: Int
  private(set) var count = 0
  private var ids: [Int32]
  private var amounts: [Int]

  init(width: Int, capacity: Int) {
    self.width = width
    ids = []
    ids.reserveCapacity(capacity * width)
    amounts = []
    amounts.reserveCapacity(capacity)
  }

  /// Adds a sequence of `amount` occurrences whose ids `fill` writes.
  mutating func append(amount: Int, _ fill: (UnsafeMutablePointer<Int32>) -> Void) {
    let start = ids.count
    ids.append(contentsOf: repeatElement(0, count: width))
    ids.withUnsafeMutableBufferPointer { fill($0.baseAddress! + start) }
    amounts.append(amount)
    count += 1
  }

  /// Tallies every sequence, starting the load of each one's slot a few turns ahead.
  func tally(
    hasher: SequenceHasher, unique: Bool, windows: inout Shard, pairs: inout Shard
  ) {
    let ahead = 8
    var hashes = [UInt64](repeating: 0, count: ahead)
    ids.withUnsafeBufferPointer { ids in
      let base = ids.baseAddress!
      func start(_ index: Int) {
        let sequence = base + index * width
        let hash = hasher.sequence(sequence)
        hashes[index % ahead] = hash
        if unique {
          pairs.prefetch(hash: hasher.pair(sequence))
        } else {
          windows.prefetch(hash: hash)
        }
      }
      for index in 0..<min(ahead, count) { start(index) }
      for index in 0..<count {
        let hash = hashes[index % ahead]
        if index + ahead < count { start(index + ahead) }
        Partial.tally(
          base + index * width, hash: hash, amount: amounts[index], hasher: hasher,
          unique: unique, windows: &windows, pairs: &pairs)
      }
    }
  }
}
