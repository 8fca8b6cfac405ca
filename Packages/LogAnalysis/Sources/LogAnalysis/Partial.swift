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
  var clients: Clients
  /// Occurrences of each sequence; with `uniqueClients`, the clients behind each.
  var windows: WindowTable
  /// With `uniqueClients`: each distinct sequence and client, the client's id after the pages.
  var pairs: WindowTable

  public init(options: AnalysisOptions) {
    self.options = options
    clients = Clients(keep: options.length - 1)
    windows = WindowTable(width: options.length)
    pairs = WindowTable(width: options.length + 1)
  }

  public var clientCount: Int { clients.count }
  public var distinctSequences: Int { windows.count }

  /// What the counts are shares of: all occurrences, or (with `uniqueClients`) all clients.
  public var total: Int {
    options.uniqueClients ? clients.count : windows.total
  }

  // MARK: Reading lines

  /// Analyses the lines of the blocks that `body` passes to its argument, in order. A block
  /// holds whole lines; the last line of the last block may lack its newline. A line's
  /// trailing `\r` is dropped. Sequences are counted in groups of `pendingThreshold` per
  /// shard.
  static func reading(
    options: AnalysisOptions, pendingThreshold: Int = PendingSequences.defaultThreshold,
    _ body: ((UnsafeRawBufferPointer) -> Void) throws -> Void
  ) rethrows -> Partial {
    var partial = Partial(options: options)
    let batch = VisitBatch(width: options.length + 1)
    let pending = PendingSequences(
      width: options.length + (options.uniqueClients ? 1 : 0), threshold: pendingThreshold)
    try body { partial.read($0, batch: batch, pending: pending) }
    for shard in 0..<WindowTable.shardCount { partial.count(pending, shard: shard) }
    return partial
  }

  private mutating func read(
    _ bytes: UnsafeRawBufferPointer, batch: VisitBatch, pending: PendingSequences
  ) {
    var start = 0
    while start < bytes.count {
      let (line, end) = LineParser.parse(bytes, from: start, options: options)
      lines += 1
      switch line {
      case .malformed:
        malformedLines += 1
      case .skipped:
        break
      case .visit(let client, let page):
        batch.append(
          client: UnsafeRawBufferPointer(rebasing: bytes[client]),
          page: UnsafeRawBufferPointer(rebasing: bytes[page]))
        if batch.isFull { visit(batch, pending: pending) }
      }
      start = end + 1
    }
    visit(batch, pending: pending)
  }

  /// Adds the visits in `batch`, in order, in stages that each start the memory loads the
  /// next one needs; the sequences they complete go to `pending`. Then empties `batch`.
  private mutating func visit(_ batch: VisitBatch, pending: PendingSequences) {
    for index in 0..<batch.count {
      batch.clientHashes[index] = Hashing.hash(batch.clients[index])
      batch.pageHashes[index] = Hashing.hash(batch.pages[index])
      clients.names.prefetchSlot(hash: batch.clientHashes[index])
      pages.prefetchSlot(hash: batch.pageHashes[index])
    }
    let stride = clients.stride
    clients.pages.withUnsafeBufferPointer { clientPages in
      for index in 0..<batch.count {
        pages.prefetchBytes(hash: batch.pageHashes[index])
        if let client = clients.names.prefetchBytes(hash: batch.clientHashes[index]) {
          prefetch(clientPages.baseAddress! + Int(client) * stride)
        }
      }
    }
    for index in 0..<batch.count {
      let client = clients.names.intern(batch.clients[index], hash: batch.clientHashes[index])
      batch.clientIDs[index] = client
      batch.pageIDs[index] = pages.intern(batch.pages[index], hash: batch.pageHashes[index])
      if Int(client) * stride == clients.pages.count {
        clients.pages.append(contentsOf: repeatElement(0, count: stride))
      }
    }
    let keep = clients.keep
    var due = false
    SequenceHasher.with(
      length: options.length, pages: pages.hashes, clients: clients.names.hashes
    ) { hasher in
      clients.pages.withUnsafeMutableBufferPointer { clientPages in
        let window = batch.window
        for index in 0..<batch.count {
          let client = batch.clientIDs[index]
          let base = clientPages.baseAddress! + Int(client) * stride
          guard Clients.visit(base, keep: keep, page: batch.pageIDs[index], window: window)
          else { continue }
          window[keep + 1] = client
          let shard = WindowTable.shard(of: hasher.sequence(window))
          if pending.append(window, shard: shard) { due = true }
        }
      }
    }
    if due {
      for shard in 0..<WindowTable.shardCount where pending.isDue(shard) {
        count(pending, shard: shard)
      }
    }
    batch.removeAll()
  }

  /// Counts the sequences `pending` holds for `shard`. When they are many for the size of the
  /// shard, its slots are loaded in order first.
  private mutating func count(_ pending: PendingSequences, shard: Int) {
    let unique = options.uniqueClients
    SequenceHasher.with(
      length: options.length, pages: pages.hashes, clients: clients.names.hashes
    ) { hasher in
      pending.drain(shard) { ids, count in
        let width = pending.width
        windows.shards[shard].load(ifAtMost: 2 * count)
        if unique { pairs.shards[shard].load(ifAtMost: 2 * count) }
        for index in 0..<count {
          let sequence = ids + index * width
          Self.tally(
            sequence, hash: hasher.sequence(sequence), amount: 1, hasher: hasher,
            unique: unique, windows: &windows.shards[shard], pairs: &pairs.shards[shard])
        }
      }
    }
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
    ids.withUnsafeBufferPointer { add($0, amount: amount) } == 1
  }

  /// Adds `amount` occurrences of each sequence in `ids`, `length + 1` ids each (its pages,
  /// then a client); returns how many sequences (or, with `uniqueClients`, sequences and
  /// clients) are new.
  @discardableResult
  mutating func add(_ ids: UnsafeBufferPointer<Int32>, amount: Int) -> Int {
    let unique = options.uniqueClients
    let before = unique ? pairs.count : windows.count
    SequenceHasher.with(
      length: options.length, pages: pages.hashes, clients: clients.names.hashes
    ) { hasher in
      for start in stride(from: 0, to: ids.count, by: options.length + 1) {
        let sequence = ids.baseAddress! + start
        let hash = hasher.sequence(sequence)
        let shard = WindowTable.shard(of: hash)
        Self.tally(
          sequence, hash: hash, amount: amount, hasher: hasher, unique: unique,
          windows: &windows.shards[shard], pairs: &pairs.shards[shard])
      }
    }
    return (unique ? pairs.count : windows.count) - before
  }
}
