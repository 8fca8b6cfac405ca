import CPrefetch

extension Partial {
  /// Analyses the lines of the blocks that `body` passes to its argument, in order. A block
  /// holds whole lines; the last line of the last block may lack its newline. A line's
  /// trailing `\r` is dropped. Sequences are counted in groups of `pendingThreshold` per
  /// shard. Lines are read by `layout`, or with nil (combined or common logs, and options
  /// that need only the client, the page and the time) by the fastest path.
  package static func reading(
    options: AnalysisOptions, layout: LineLayout? = nil, readingTimes: Bool = false,
    pendingThreshold: Int = PendingSequences.defaultThreshold,
    _ body: ((UnsafeRawBufferPointer) -> Void) throws -> Void
  ) rethrows -> Partial {
    var partial = Partial(options: options)
    let batch = VisitBatch(width: options.length + 1)
    let pending = PendingSequences(
      width: options.length + (options.uniqueClients ? 1 : 0), pairs: options.uniqueClients,
      threshold: pendingThreshold)
    let tails = TailHashes(keep: partial.clients.keep, length: options.length)
    if var layout {
      let selector = VisitSelector(options: options, readingTimes: readingTimes)
      try body {
        partial.read(
          $0, layout: &layout, selector: selector, batch: batch, pending: pending, tails: tails)
      }
    } else {
      try body {
        partial.read(
          $0, readingTimes: readingTimes, batch: batch, pending: pending, tails: tails)
      }
    }
    for shard in 0..<WindowTable.shardCount { partial.count(pending, shard: shard) }
    return partial
  }

  /// Reads the lines of one block, gathering their visits in `batch`; with `readingTimes`,
  /// their times too.
  private mutating func read(
    _ bytes: UnsafeRawBufferPointer, readingTimes: Bool, batch: VisitBatch,
    pending: PendingSequences, tails: TailHashes
  ) {
    var start = 0
    var times = LocalApacheTimes()
    // A funnel needs each visit's time: a line whose time does not read is malformed, as on
    // the full path.
    let timed = !options.funnel.isEmpty
    // The clients of the visits that name no page, added at the block's end (with the clients
    // panel, with those visits' sizes).
    var pageless: [Range<Int>] = []
    var pagelessSizes: [Int] = []
    defer {
      let ids = pagelessClients.intern(pageless, of: bytes)
      if options.panels.contains(.clients) {
        panels.addWithoutPage(clients: ids, sizes: pagelessSizes)
      }
    }
    while start < bytes.count {
      var (line, end) = LineParser.parse(bytes, from: start, options: options)
      if LineLimit.isOverlong(end - start) { line = .malformed }
      var seconds: Int64?
      if timed, case .visit(_, _, let time, _) = line {
        seconds = ApacheTime.seconds(bytes, at: time)
        if seconds == nil { line = .malformed }
      }
      switch line {
      case .malformed:
        // Only a line that does not read may be blank or a comment: they cost nothing else.
        switch Self.kind(of: bytes, at: start) {
        case .blank: break
        case .comment: commentLines += 1
        case .other:
          lines += 1
          malformedLines += 1
          if firstMalformed == nil { noteMalformed(bytes, start..<end) }
        }
      case .skipped:
        lines += 1
        filteredLines += 1
      case .noPage(let client, let time, let close):
        lines += 1
        unreadableRequests += 1
        pageless.append(client)
        if readingTimes, let seconds = ApacheTime.seconds(bytes, at: time) {
          include(seconds) { ApacheTime.reading(bytes, at: time)?.offset ?? 0 }
        }
        if !options.panels.isEmpty {
          let panels = options.panels
          let tail = LineParser.tail(bytes, after: close, referer: panels.needReferer)
          if panels.contains(.clients) { pagelessSizes.append(tail.size) }
          self.panels.addWithoutPage(
            status: tail.status, size: tail.size, referer: tail.referer,
            localTime: (panels.needTime ? times.localSeconds(bytes, at: time) : nil) ?? .min,
            panels: panels)
        }
      case .visit(let client, let page, let time, let close):
        lines += 1
        if readingTimes || timed, let seconds = seconds ?? ApacheTime.seconds(bytes, at: time) {
          include(seconds) { ApacheTime.reading(bytes, at: time)?.offset ?? 0 }
        }
        batch.append(
          client: UnsafeRawBufferPointer(rebasing: bytes[client]),
          page: UnsafeRawBufferPointer(rebasing: bytes[page]), time: seconds ?? 0)
        if !options.panels.isEmpty {
          let panels = options.panels
          let tail =
            panels.needStatus || panels.needSize || panels.needReferer
            ? LineParser.tail(bytes, after: close, referer: panels.needReferer)
            : (status: -1, size: 0, referer: UnsafeRawBufferPointer(start: nil, count: 0))
          let local = panels.needTime ? times.localSeconds(bytes, at: time) : nil
          batch.setDetails(
            status: tail.status, size: tail.size, referer: tail.referer,
            localTime: local ?? .min)
        }
        if batch.isFull { visit(batch, pending: pending, tails: tails) }
      }
      start = end + 1
    }
    visit(batch, pending: pending, tails: tails)
  }

  /// Reads the lines of one block by `layout`, gathering their visits in `batch`. A W3C
  /// `#Fields:` line changes the layout for the lines after it; other `#` lines of a W3C log
  /// are directives, not counted as lines.
  private mutating func read(
    _ bytes: UnsafeRawBufferPointer, layout: inout LineLayout, selector: VisitSelector,
    batch: VisitBatch, pending: PendingSequences, tails: TailHashes
  ) {
    let scanner = ByteScanner(bytes: bytes)
    var start = 0
    while start < bytes.count {
      let end = scanner.newline(from: start)
      let lineEnd = end > start && bytes[end - 1] == UInt8(ascii: "\r") ? end - 1 : end
      let line = UnsafeRawBufferPointer(rebasing: bytes[start..<lineEnd])
      defer { start = end + 1 }
      if LineParser.isBlank(line) { continue }
      if case .w3c = layout, line.first == UInt8(ascii: "#") {
        if let header = W3CLayout(header: line), header.isUsable { layout = .w3c(header) }
        continue
      }
      var record = LogRecord()
      let outcome =
        !LineLimit.isOverlong(line.count) && layout.parse(line, into: &record, arena: batch.arena)
        ? selector.select(record, arena: batch.arena) : .malformed
      // A `#` line that does not read is a comment, as on the fast path.
      if case .malformed = outcome, line.first == UInt8(ascii: "#") {
        commentLines += 1
        continue
      }
      lines += 1
      switch outcome {
      case .malformed:
        malformedLines += 1
        if firstMalformed == nil { noteMalformed(bytes, start..<lineEnd) }
      case .skipped:
        filteredLines += 1
      case .noPage(let client, let time):
        unreadableRequests += 1
        let id = pagelessClients.intern(client)
        if let time { include(time) { record.localSeconds.map { $0 - time } ?? 0 } }
        if !options.panels.isEmpty {
          let panels = options.panels
          if panels.contains(.clients) {
            self.panels.addWithoutPage(clients: [id], sizes: [record.sizeValue])
          }
          self.panels.addWithoutPage(
            status: record.statusCode ?? -1, size: panels.needSize ? record.sizeValue : 0,
            referer: record.referer ?? UnsafeRawBufferPointer(start: nil, count: 0),
            localTime: panels.needTime ? record.localSeconds ?? .min : .min, panels: panels)
        }
      case .visit(let client, let page, let time):
        if let time { include(time) { record.localSeconds.map { $0 - time } ?? 0 } }
        batch.append(client: client, page: page, time: time ?? 0)
        if !options.panels.isEmpty {
          let panels = options.panels
          batch.setDetails(
            status: panels.needStatus ? record.statusCode ?? -1 : -1,
            size: panels.needSize ? record.sizeValue : 0,
            referer: record.referer ?? UnsafeRawBufferPointer(start: nil, count: 0),
            localTime: panels.needTime ? record.localSeconds ?? .min : .min)
        }
        if batch.isFull { visit(batch, pending: pending, tails: tails) }
      }
    }
    visit(batch, pending: pending, tails: tails)
  }

  /// What a line that starts at `start` is: blank (nothing, or spaces, tabs and a `\r`, before
  /// its newline), a `#` line, or another line.
  private enum LineKind {
    case blank, comment, other
  }

  private static func kind(of bytes: UnsafeRawBufferPointer, at start: Int) -> LineKind {
    var index = start
    while index < bytes.count
      && (bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t"))
    {
      index += 1
    }
    guard index < bytes.count else { return .blank }
    switch bytes[index] {
    case UInt8(ascii: "\n"): return .blank
    case UInt8(ascii: "#") where index == start: return .comment
    case UInt8(ascii: "\r")
    where index + 1 == bytes.count || bytes[index + 1] == UInt8(ascii: "\n"):
      return .blank
    default: return .other
    }
  }

  /// Keeps the start of the first malformed line, to show it.
  private mutating func noteMalformed(_ bytes: UnsafeRawBufferPointer, _ line: Range<Int>) {
    var end = min(line.upperBound, line.lowerBound + Self.malformedSampleLength)
    if end > line.lowerBound && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    firstMalformed = Array(bytes[line.lowerBound..<end])
  }

  /// Adds the visits in `batch`, in order, in stages that each start the memory loads the
  /// next one needs; the sequences they complete go to `pending`, hashed from `tails`. Then
  /// empties `batch`.
  private mutating func visit(_ batch: VisitBatch, pending: PendingSequences, tails: TailHashes) {
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
          tails.prefetch(client)
        }
      }
    }
    for index in 0..<batch.count {
      let client = clients.names.intern(batch.clients[index], hash: batch.clientHashes[index])
      batch.clientIDs[index] = client
      batch.pageIDs[index] = pages.intern(batch.pages[index], hash: batch.pageHashes[index])
      clients.makeRoom(for: Int(client))
      tails.makeRoom(for: Int(client))
    }
    let keep = clients.keep
    if !options.panels.isEmpty { panels.add(batch, panels: options.panels) }
    if !funnelCounts.isEmpty {
      funnelCounts.learn(pages)
      for index in 0..<batch.count {
        funnelCounts.visit(
          client: Int(batch.clientIDs[index]), page: batch.pageIDs[index], time: batch.times[index])
      }
    }
    let length = options.length
    let unique = options.uniqueClients
    var due = false
    /// Holds the sequence at `window`, whose pages' hashes `tails` holds, of the client whose
    /// name's hash is `client`.
    func hold(_ window: UnsafePointer<Int32>, client: UInt64) {
      let hash = Hashing.sequence(count: length) { tails.window[$0] }
      let pairHash = unique ? Hashing.pair(sequence: hash, client: client) : 0
      if pending.append(window, hash: hash, pairHash: pairHash) { due = true }
    }
    let window = batch.window
    if let gap = options.sessionGap {
      // Each visit may end its client's path first, so visits go one at a time.
      for index in 0..<batch.count {
        let client = batch.clientIDs[index]
        let page = batch.pageIDs[index]
        clients.arrive(Int(client), at: batch.times[index], page: page, gap: gap)
        let completes = clients.pages.withUnsafeMutableBufferPointer {
          Clients.visit(
            $0.baseAddress! + Int(client) * stride, keep: keep, length: length, page: page,
            window: window, hashes: tails.row(client), pageHash: batch.pageHashes[index],
            windowHashes: tails.window)
        }
        guard completes else { continue }
        window[length] = client
        hold(window, client: batch.clientHashes[index])
      }
    } else {
      clients.pages.withUnsafeMutableBufferPointer { clientPages in
        for index in 0..<batch.count {
          let client = batch.clientIDs[index]
          guard
            Clients.visit(
              clientPages.baseAddress! + Int(client) * stride, keep: keep, length: length,
              page: batch.pageIDs[index], window: window, hashes: tails.row(client),
              pageHash: batch.pageHashes[index], windowHashes: tails.window)
          else { continue }
          window[length] = client
          hold(window, client: batch.clientHashes[index])
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
  /// shard, its slots are loaded in order first; each one's slot is fetched a few sequences
  /// ahead of its turn.
  private mutating func count(_ pending: PendingSequences, shard: Int) {
    let unique = options.uniqueClients
    let ahead = Tuning.prefetchDistance
    pending.drain(shard) { records, count in
      windows.shards[shard].load(ifAtMost: 2 * count)
      if unique { pairs.shards[shard].load(ifAtMost: 2 * count) }
      SequenceHasher.with(
        length: options.length, pages: pages.hashes, clients: clients.names.hashes
      ) { hasher in
        for index in 0..<count {
          let record = records + index * pending.stride
          if index + ahead < count {
            let later = record + ahead * pending.stride
            if unique {
              pairs.shards[shard].prefetch(hash: pending.pairHash(later))
            } else {
              windows.shards[shard].prefetch(hash: pending.hash(later))
            }
          }
          Self.tally(
            record, hash: pending.hash(record), pairHash: unique ? pending.pairHash(record) : nil,
            amount: 1, hasher: hasher, unique: unique, windows: &windows.shards[shard],
            pairs: &pairs.shards[shard])
        }
      }
    }
  }
}
