import CPrefetch

extension Partial {
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

  /// Reads the lines of one block, gathering their visits in `batch`.
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
    pending.drain(shard) { ids, count in
      windows.shards[shard].load(ifAtMost: 2 * count)
      if options.uniqueClients { pairs.shards[shard].load(ifAtMost: 2 * count) }
      let width = pending.width
      add(UnsafeBufferPointer(start: ids, count: count * width), width: width, amount: 1)
    }
  }
}
