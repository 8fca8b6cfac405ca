import CPrefetch
import Foundation
import Synchronization

/// The analysis of a contiguous part of a log, in a form that merges: `a.append(b)` gives the
/// analysis of a's lines followed by b's, so chunks analysed in parallel, or shards analysed
/// anywhere, add up to exactly the result of one pass.
public struct Partial: Sendable {
  public let options: AnalysisOptions
  public internal(set) var lines = 0
  public internal(set) var malformedLines = 0

  var pages = Interner()
  var clients = Interner()
  /// Per client, `clientStride` words: its last `keep` pages (oldest first), its first `keep`
  /// pages, then how many of each are set (the last pages' in the low byte).
  var clientPages: [Int32] = []
  /// Occurrences of each sequence; with `uniqueClients`, the clients behind each.
  var windows: WindowTable
  /// With `uniqueClients`: each distinct sequence and client, the client's id after the pages.
  var pairs: WindowTable

  public init(options: AnalysisOptions) {
    self.options = options
    windows = WindowTable(width: options.length)
    pairs = WindowTable(width: options.length + 1)
  }

  public var clientCount: Int { clients.count }
  public var distinctSequences: Int { windows.count }

  /// What the counts are shares of: all occurrences, or (with `uniqueClients`) all clients.
  public var total: Int {
    if options.uniqueClients { return clients.count }
    var total = 0
    windows.forEachEntry { total += $1 }
    return total
  }

  private var keep: Int { options.length - 1 }
  private var clientStride: Int { 2 * keep + 1 }

  // MARK: Reading lines

  /// Analyses the lines in `bytes`. The last line may lack its newline; a line's trailing
  /// `\r` is dropped.
  mutating func read(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    let batch = VisitBatch(width: options.length + 1)
    var start = 0
    let count = bytes.count
    while start < count {
      var end = count
      if let found = memchr(base + start, Int32(UInt8(ascii: "\n")), count - start) {
        end = base.distance(to: UnsafeRawPointer(found))
      }
      let next = end + 1
      if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
      let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
      lines += 1
      switch LineParser.parse(line, options: options) {
      case .malformed:
        malformedLines += 1
      case .skipped:
        break
      case .visit(let client, let page):
        batch.append(
          client: UnsafeRawBufferPointer(rebasing: line[client]),
          page: UnsafeRawBufferPointer(rebasing: line[page]))
        if batch.isFull { read(batch) }
      }
      start = next
    }
    read(batch)
  }

  /// Counts the visits in `batch`, in order, in stages that each start the memory loads the
  /// next one needs; then empties it.
  private mutating func read(_ batch: VisitBatch) {
    for index in 0..<batch.count {
      batch.clientHashes[index] = Hashing.hash(batch.clients[index])
      batch.pageHashes[index] = Hashing.hash(batch.pages[index])
      clients.prefetchSlot(hash: batch.clientHashes[index])
    }
    for index in 0..<batch.count { clients.prefetchBytes(hash: batch.clientHashes[index]) }
    let stride = clientStride
    for index in 0..<batch.count {
      let client = clients.intern(batch.clients[index], hash: batch.clientHashes[index])
      batch.clientIDs[index] = client
      batch.pageIDs[index] = pages.intern(batch.pages[index], hash: batch.pageHashes[index])
      let base = Int(client) * stride
      if base == clientPages.count {
        clientPages.append(contentsOf: repeatElement(0, count: stride))
      } else {
        clientPages.withUnsafeBufferPointer { prefetch($0.baseAddress! + base) }
      }
    }
    let unique = options.uniqueClients
    let keep = self.keep
    SequenceHasher.with(length: options.length, pages: pages.hashes, clients: clients.hashes) {
      hasher in
      windows.shards.withUnsafeMutableBufferPointer { windowShards in
        clientPages.withUnsafeMutableBufferPointer { clientPages in
          for index in 0..<batch.count {
            let window = batch.window(batch.windowCount)
            let client = batch.clientIDs[index]
            let base = clientPages.baseAddress! + Int(client) * stride
            guard Self.visit(base, keep: keep, page: batch.pageIDs[index], window: window)
            else { continue }
            window[keep + 1] = client
            let hash = hasher.sequence(window)
            batch.windowHashes[batch.windowCount] = hash
            batch.windowCount += 1
            windowShards[WindowTable.shard(of: hash)].prefetch(hash: hash)
          }
        }
        pairs.shards.withUnsafeMutableBufferPointer { pairShards in
          for index in 0..<batch.windowCount {
            let hash = batch.windowHashes[index]
            let shard = WindowTable.shard(of: hash)
            Self.tally(
              batch.window(index), hash: hash, amount: 1, hasher: hasher, unique: unique,
              windows: &windowShards[shard], pairs: &pairShards[shard])
          }
        }
      }
    }
    batch.removeAll()
  }

  /// Adds `page` to the pages of the client at `base`; when that completes a sequence,
  /// writes its pages to `window` and returns true.
  private static func visit(
    _ base: UnsafeMutablePointer<Int32>, keep: Int, page: Int32,
    window: UnsafeMutablePointer<Int32>
  ) -> Bool {
    let counts = base[2 * keep]
    var tails = Int(counts & 0xff)
    var heads = Int(counts >> 8)
    if heads < keep {
      base[keep + heads] = page
      heads += 1
    }
    let completes = tails == keep
    if completes {
      for index in 0..<keep { window[index] = base[index] }
      window[keep] = page
      for index in 0..<(keep - 1) { base[index] = base[index + 1] }
      base[keep - 1] = page
    } else {
      base[tails] = page
      tails += 1
    }
    base[2 * keep] = Int32(tails | heads << 8)
    return completes
  }

  /// The first word of `client`'s pages, making room for it when it is new.
  private mutating func base(of client: Int) -> Int {
    let base = client * clientStride
    if base == clientPages.count {
      clientPages.append(contentsOf: repeatElement(0, count: clientStride))
    }
    return base
  }

  /// Adds `amount` occurrences of the sequence at `ids`, whose hash is `hash`, to its shard;
  /// with `unique`, `ids` carries the client after the pages, and the sequence counts once
  /// per client.
  private static func tally(
    _ ids: UnsafePointer<Int32>, hash: UInt64, amount: Int, hasher: SequenceHasher,
    unique: Bool, windows: inout Shard, pairs: inout Shard
  ) {
    if !unique {
      windows.add(ids, hash: hash, amount: amount, rehash: hasher.sequence)
    } else if pairs.add(ids, hash: hasher.pair(ids), amount: 1, rehash: hasher.pair) {
      windows.add(ids, hash: hash, amount: 1, rehash: hasher.sequence)
    }
  }

  /// Adds `amount` occurrences of the sequence in `ids` (its pages, then a client); returns
  /// whether the sequence (or, with `uniqueClients`, the sequence and client) is new.
  mutating func add(_ ids: [Int32], amount: Int) -> Bool {
    let table = options.uniqueClients ? pairs : windows
    let before = table.count
    ids.withUnsafeBufferPointer { ids in
      SequenceHasher.with(length: options.length, pages: pages.hashes, clients: clients.hashes) {
        hasher in
        let hash = hasher.sequence(ids.baseAddress!)
        let shard = WindowTable.shard(of: hash)
        Self.tally(
          ids.baseAddress!, hash: hash, amount: amount, hasher: hasher,
          unique: options.uniqueClients,
          windows: &windows.shards[shard], pairs: &pairs.shards[shard])
      }
    }
    return (options.uniqueClients ? pairs : windows).count > before
  }

  /// Sets a client's pages as read from a serialized partial.
  mutating func restoreClient(_ client: Int, head: [Int32], tail: [Int32]) {
    let base = base(of: client)
    for (offset, page) in tail.enumerated() { clientPages[base + offset] = page }
    for (offset, page) in head.enumerated() { clientPages[base + keep + offset] = page }
    clientPages[base + 2 * keep] = Int32(tail.count | head.count << 8)
  }

  func head(_ client: Int) -> ArraySlice<Int32> {
    let base = client * clientStride
    return clientPages[base + keep..<base + keep + Int(clientPages[base + 2 * keep] >> 8)]
  }

  func tail(_ client: Int) -> ArraySlice<Int32> {
    let base = client * clientStride
    return clientPages[base..<base + Int(clientPages[base + 2 * keep] & 0xff)]
  }

  // MARK: Merging

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

  // MARK: Results

  /// The sequences, most common first; ties in the order of their pages compared as bytes.
  /// `top` 0 returns them all.
  public func ranking(top: Int) -> [RankedSequence] {
    let pageBytes = (0..<Int32(pages.count)).map { Array(pages.bytes($0)) }
    let order = RankOrder(pageBytes: pageBytes)
    let limit = top > 0 ? top : Int.max
    // The best of each shard, on every core, then the best of those.
    let perShard = Mutex([[Candidate]](repeating: [], count: WindowTable.shardCount))
    DispatchQueue.concurrentPerform(iterations: WindowTable.shardCount) { shard in
      var best = Leaderboard(limit: limit, order: order)
      windows.shards[shard].forEachEntry { best.offer($0, count: $1) }
      perShard.withLock { $0[shard] = best.candidates }
    }
    var best = Leaderboard(limit: limit, order: order)
    for candidate in perShard.withLock({ $0 }).joined() {
      candidate.pages.withUnsafeBufferPointer { best.offer($0, count: candidate.count) }
    }
    return best.candidates.map { candidate in
      RankedSequence(
        pages: candidate.pages.map { pageBytes[Int($0)] }, count: candidate.count)
    }
  }
}

/// A sequence's page ids and count.
private struct Candidate {
  var pages: [Int32]
  var count: Int
}

/// The ranking order: higher counts first; equal counts by their pages compared one by one
/// as bytes.
private struct RankOrder: Sendable {
  /// Each page's place among all pages sorted as bytes.
  private var places: [Int32]

  init(pageBytes: [[UInt8]]) {
    places = Array(repeating: 0, count: pageBytes.count)
    let sorted = pageBytes.indices.sorted { pageBytes[$0].lexicographicallyPrecedes(pageBytes[$1]) }
    for (place, page) in sorted.enumerated() { places[page] = Int32(place) }
  }

  func ranksHigher(
    _ a: some Collection<Int32>, _ aCount: Int, _ b: some Collection<Int32>, _ bCount: Int
  ) -> Bool {
    if aCount != bCount { return aCount > bCount }
    for (left, right) in zip(a, b) where left != right {
      return places[Int(left)] < places[Int(right)]
    }
    return false
  }
}

/// The best `limit` candidates offered, in ranking order.
private struct Leaderboard {
  let limit: Int
  let order: RankOrder
  private var kept: [Candidate] = []
  private var isSorted = true

  init(limit: Int, order: RankOrder) {
    self.limit = limit
    self.order = order
  }

  var candidates: [Candidate] {
    isSorted ? kept : kept.sorted { order.ranksHigher($0.pages, $0.count, $1.pages, $1.count) }
  }

  mutating func offer(_ pages: UnsafeBufferPointer<Int32>, count: Int) {
    if limit == .max {
      // Everything is kept: sort once at the end.
      kept.append(Candidate(pages: Array(pages), count: count))
      isSorted = false
      return
    }
    if kept.count == limit, let last = kept.last,
      !order.ranksHigher(pages, count, last.pages, last.count)
    {
      return
    }
    var low = 0
    var high = kept.count
    while low < high {
      let middle = (low + high) / 2
      if order.ranksHigher(kept[middle].pages, kept[middle].count, pages, count) {
        low = middle + 1
      } else {
        high = middle
      }
    }
    kept.insert(Candidate(pages: Array(pages), count: count), at: low)
    if kept.count > limit { kept.removeLast() }
  }
}

/// One line of the result: a sequence of pages (as bytes) and its count.
public struct RankedSequence: Equatable, Sendable {
  public var pages: [[UInt8]]
  public var count: Int

  public init(pages: [[UInt8]], count: Int) {
    self.pages = pages
    self.count = count
  }

  /// The pages as text, invalid UTF-8 replaced.
  public var pageTexts: [String] { pages.map { String(decoding: $0, as: UTF8.self) } }
}
