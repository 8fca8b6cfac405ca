import CPrefetch
import Dispatch

extension Partial {
  /// Adds the analysis of the lines that follow this part.
  public mutating func append(_ next: Partial) {
    precondition(next.options == options, "partials of different options do not merge")
    lines += next.lines
    malformedLines += next.malformedLines
    let pageMap = pages.intern(contentsOf: next.pages)
    let clientMap = clients.intern(contentsOf: next.clients)
    let straddling = stitch(next, pageMap: pageMap, clientMap: clientMap)
    mergeSequences(next, pageMap: pageMap, clientMap: clientMap, straddling: straddling)
  }

  /// Joins each client's last pages here to its first pages in `next`, and returns the
  /// sequences that span the two, each `length` pages and the client.
  private mutating func stitch(_ next: Partial, pageMap: [Int32], clientMap: [Int32]) -> [Int32] {
    let keep = self.keep
    let length = options.length
    var straddling: [Int32] = []
    var joined = [Int32](repeating: 0, count: 2 * keep)
    let ahead = 16
    for old in 0..<next.clients.count {
      if old + ahead < clientMap.count {
        let later = Int(clientMap[old + ahead]) * clientStride
        if later < clientPages.count {
          clientPages.withUnsafeBufferPointer { prefetch($0.baseAddress! + later) }
        }
      }
      let client = clientMap[old]
      let base = base(of: Int(client))
      let nextHead = next.head(old)
      let nextTail = next.tail(old)
      let counts = clientPages[base + 2 * keep]
      let tails = Int(counts & 0xff)
      var heads = Int(counts >> 8)
      for index in 0..<tails { joined[index] = clientPages[base + index] }
      for (offset, page) in nextHead.enumerated() { joined[tails + offset] = pageMap[Int(page)] }
      let joinedCount = tails + nextHead.count
      var start = 0
      while start < tails && start + length <= joinedCount {
        straddling.append(contentsOf: joined[start..<start + length])
        straddling.append(client)
        start += 1
      }
      // Fewer than `keep` first pages means all pages so far, which `joined` starts with.
      while heads < keep && heads < joinedCount {
        clientPages[base + keep + heads] = joined[heads]
        heads += 1
      }
      for (offset, page) in nextTail.enumerated() { joined[tails + offset] = pageMap[Int(page)] }
      let newTails = min(keep, tails + nextTail.count)
      let drop = tails + nextTail.count - newTails
      for index in 0..<newTails { clientPages[base + index] = joined[drop + index] }
      clientPages[base + 2 * keep] = Int32(newTails | heads << 8)
    }
    return straddling
  }

  /// Adds `next`'s sequences and the `straddling` ones, shard by shard on every core.
  private mutating func mergeSequences(
    _ next: Partial, pageMap: [Int32], clientMap: [Int32], straddling: [Int32]
  ) {
    let options = self.options
    let unique = options.uniqueClients
    let width = options.length + 1
    SequenceHasher.with(length: options.length, pages: pages.hashes, clients: clients.hashes) {
      hasher in
      var spanning = [[Int32]](repeating: [], count: WindowTable.shardCount)
      straddling.withUnsafeBufferPointer { straddling in
        for start in stride(from: 0, to: straddling.count, by: width) {
          let ids = straddling.baseAddress! + start
          spanning[WindowTable.shard(of: hasher.sequence(ids))].append(
            contentsOf: UnsafeBufferPointer(start: ids, count: width))
        }
      }
      windows.shards.withUnsafeMutableBufferPointer { windowShards in
        pairs.shards.withUnsafeMutableBufferPointer { pairShards in
          // Safe: each iteration changes only its own shard of each table, and the hashes
          // only change when strings are interned, which happens before.
          nonisolated(unsafe) let windowShards = windowShards
          nonisolated(unsafe) let pairShards = pairShards
          nonisolated(unsafe) let hasher = hasher
          let spanning = spanning
          DispatchQueue.concurrentPerform(iterations: WindowTable.shardCount) { shard in
            var ids = [Int32](repeating: 0, count: width)
            ids.withUnsafeMutableBufferPointer { ids in
              let mapped = ids.baseAddress!
              let source = unique ? next.pairs.shards[shard] : next.windows.shards[shard]
              source.forEachEntry { old, amount in
                for index in 0..<options.length { mapped[index] = pageMap[Int(old[index])] }
                if unique { mapped[options.length] = clientMap[Int(old[options.length])] }
                Self.tally(
                  mapped, hash: hasher.sequence(mapped), amount: amount, hasher: hasher,
                  unique: unique,
                  windows: &windowShards[shard], pairs: &pairShards[shard])
              }
            }
            spanning[shard].withUnsafeBufferPointer { spanning in
              for start in stride(from: 0, to: spanning.count, by: width) {
                let ids = spanning.baseAddress! + start
                Self.tally(
                  ids, hash: hasher.sequence(ids), amount: 1, hasher: hasher, unique: unique,
                  windows: &windowShards[shard], pairs: &pairShards[shard])
              }
            }
          }
        }
      }
    }
  }
}
