import Dispatch
import Synchronization

extension Partial {
  /// Adds the analysis of the lines that follow this part.
  public mutating func append(_ next: Partial) { append(releasing: next) }

  /// Adds the analysis of the lines that follow this part, letting go of each of `next`'s
  /// sequence shards once merged, so that the two tables are not held whole at once where
  /// `next` was the last reference to them.
  package mutating func append(releasing next: consuming Partial) {
    precondition(next.options == options, "partials of different options do not merge")
    if lines == 0 && commentLines == 0 && pages.count == 0 && clients.count == 0
      && pagelessClients.count == 0
    {
      // Nothing to merge with: the next part as it is, from wherever this one came.
      let source = self.source
      self = next
      self.source = source
      return
    }
    var header = self.header
    header.append(next.header)
    setHeader(header)
    let pageMap = pages.intern(contentsOf: next.pages)
    let pagelessMap = pagelessClients.intern(contentsOf: next.pagelessClients)
    let spanning: [Int32]
    let clientMap: [Int32]
    if options.uniqueClients {
      // The pairs name clients, so the clients join first.
      let joined = clients.append(next.clients, pageMap: pageMap)
      (spanning, clientMap) = (joined.spanning, joined.ids)
      next.windows = WindowTable(width: options.length)
      mergeSequences(&next.pairs, pageMap: pageMap, clientMap: joined.ids)
    } else {
      // The sequences do not name clients, so the clients join on one core while the
      // sequences merge on the others.
      var moving = Clients(length: clients.length, sessionGap: clients.sessionGap)
      swap(&moving, &clients)
      let joining = Mutex((clients: consume moving, spanning: [Int32](), ids: [Int32]()))
      let nextClients = next.clients
      mergeSequences(&next.windows, pageMap: pageMap, clientMap: []) {
        joining.withLock {
          ($0.ids, $0.spanning) = $0.clients.append(nextClients, pageMap: pageMap)
        }
      }
      (clients, spanning, clientMap) = joining.withLock { ($0.clients, $0.spanning, $0.ids) }
    }
    panels.append(
      next.panels, pageMap: pageMap, clientMap: clientMap, pagelessMap: pagelessMap)
    funnelCounts.append(next.funnelCounts, clientMap: clientMap)
    spanning.withUnsafeBufferPointer { add($0, width: options.length + 1, amount: 1) }
  }

  /// Adds the sequences of `source`, another part's table (the pairs with `uniqueClients`),
  /// shard by shard on every core, emptying each of its shards once added; `alongside` runs
  /// on one of the cores meanwhile.
  private mutating func mergeSequences(
    _ source: inout WindowTable, pageMap: [Int32], clientMap: [Int32],
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
          source.shards.withUnsafeMutableBufferPointer { sourceShards in
            // Safe: each iteration changes only its own shard of each table, and the hashes
            // only change when strings are interned, which happens before.
            nonisolated(unsafe) let windowShards = windowShards
            nonisolated(unsafe) let pairShards = pairShards
            nonisolated(unsafe) let sourceShards = sourceShards
            nonisolated(unsafe) let hasher = hasher
            DispatchQueue.concurrentPerform(iterations: WindowTable.shardCount + 1) { iteration in
              guard iteration > 0 else { return alongside() }
              let shard = iteration - 1
              // Taken out, the shard's slots are freed at the end of this iteration.
              let incoming = sourceShards[shard]
              sourceShards[shard] = Shard(width: incoming.width)
              // Room for every incoming sequence, then the slots loaded in order.
              if unique {
                pairShards[shard].reserve(pairShards[shard].count + incoming.count)
                pairShards[shard].load(ifAtMost: incoming.count)
              } else {
                windowShards[shard].reserve(windowShards[shard].count + incoming.count)
              }
              windowShards[shard].load(ifAtMost: incoming.count)
              var mapped = [Int32](repeating: 0, count: width)
              mapped.withUnsafeMutableBufferPointer { mapped in
                let ids = mapped.baseAddress!
                // The hashes are of the strings, not of their ids, so the incoming table's
                // hash bits place each sequence here too.
                incoming.forEachHashedEntry { old, amount, low in
                  for index in 0..<options.length { ids[index] = pageMap[Int(old[index])] }
                  if unique {
                    ids[options.length] = clientMap[Int(old[options.length])]
                    Self.tally(
                      ids, hash: hasher.sequence(ids), pairHash: UInt64(low), amount: amount,
                      hasher: hasher, unique: true, windows: &windowShards[shard],
                      pairs: &pairShards[shard])
                  } else {
                    windowShards[shard].add(ids, hash: UInt64(low), amount: amount)
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}

extension PartialHeader {
  /// Adds what the header of the part that follows says: its counts, its format (nil when the
  /// two differ), its first malformed line when this part has none, and its times.
  mutating func append(_ next: PartialHeader) {
    if lines == 0 && formatName == nil {
      formatName = next.formatName
    } else if next.lines > 0 && formatName != next.formatName {
      formatName = nil
    }
    lines += next.lines
    malformedLines += next.malformedLines
    filteredLines += next.filteredLines
    commentLines += next.commentLines
    unreadableRequests += next.unreadableRequests
    if firstMalformed == nil { firstMalformed = next.firstMalformed }
    timeRangeOffsets = TimeRangeOffsets.merging(
      timeRange, timeRangeOffsets, next.timeRange, next.timeRangeOffsets)
    if let range = next.timeRange { timeRange = timeRange.including(range) }
  }
}
