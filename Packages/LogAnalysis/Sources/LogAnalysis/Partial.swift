import CPrefetch
import Foundation

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

  /// How many first and last pages each client keeps: one fewer than a sequence.
  var keep: Int { options.length - 1 }
  /// The words of `clientPages` per client.
  var clientStride: Int { 2 * keep + 1 }

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
  mutating func base(of client: Int) -> Int {
    let base = client * clientStride
    if base == clientPages.count {
      clientPages.append(contentsOf: repeatElement(0, count: clientStride))
    }
    return base
  }

  /// Adds `amount` occurrences of the sequence at `ids`, whose hash is `hash`, to its shard;
  /// with `unique`, `ids` carries the client after the pages, and the sequence counts once
  /// per client.
  static func tally(
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
}
