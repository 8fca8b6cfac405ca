import CPrefetch

/// The analysis of the lines of a base (an `IndexedPartial`, on disk) followed by those of a
/// delta (the lines read since), worked out from the delta and the parts of the base it
/// touches: the same numbers and rankings as the base's partial with the delta appended, at
/// the cost of the delta. The delta's clients are found among the base's, and its sequences
/// among the base's, by walking both in the order of their hashes.
public struct LayeredResult: RankedAnalysis {
  public let options: AnalysisOptions
  public let lines: Int
  public let malformedLines: Int
  public let filteredLines: Int
  public let commentLines: Int
  public let unreadableRequests: Int
  public let formatName: String?
  public let firstMalformedLine: String?
  public let timeRange: ClosedRange<Int64>?
  public let timeRangeOffsets: TimeRangeOffsets
  public let clientCount: Int
  public let clientsWithoutPage: Int
  public let distinctSequences: Int
  public let total: Int
  public let pathCount: Int

  private let base: IndexedPartial
  /// The base's pages, then the delta's new ones.
  private let pages: Interner
  /// The sequences whose counts the delta changed, shard by shard.
  private let changes: [ShardChanges]
  /// Which of the base's sequences are among them, a bit each.
  private let changedInBase: [UInt64]
  /// What the delta adds to (or takes from) the paths entering and leaving by each page.
  private let entryChanges: [Int]
  private let exitChanges: [Int]
  /// What the panels counted, by the ids here: pages as in `pages`, clients as in the base,
  /// then the delta's new ones (`newClients`, the delta's ids) after them.
  private let panelCounts: PanelCounts
  /// What the funnel counted, by the ids of `panelCounts`.
  private let funnelCounts: FunnelCounts
  private let newClients: [Int32]
  private let deltaClientNames: Interner
  /// The clients of visits that named no page, and the id here of the client of each name (-1
  /// for none).
  private let pageless: Interner
  private let pagelessOwners: [Int32]

  /// The result of `base` followed by `delta` (of the same options); throws when the base
  /// holds an id out of range.
  package init(base: IndexedPartial, delta: Partial) throws(PartialFileError) {
    precondition(base.options == delta.options, "partials of different options do not merge")
    var header = base.header
    header.append(delta.header)
    self.base = base
    options = delta.options
    (lines, malformedLines, filteredLines) = (
      header.lines, header.malformedLines, header.filteredLines
    )
    (commentLines, unreadableRequests) = (header.commentLines, header.unreadableRequests)
    formatName = header.formatName
    firstMalformedLine = header.firstMalformed.map { String(decoding: $0, as: UTF8.self) }
    (timeRange, timeRangeOffsets) = (header.timeRange, header.timeRangeOffsets)
    try base.checkSequences()

    var pages = base.pages
    let pageMap = pages.intern(contentsOf: delta.pages)
    self.pages = pages
    // Each of the delta's clients is found among the base's and joined to its pages there
    // (in a row of its own), or is new; what that changes in the path ends is kept.
    let clients = delta.clients
    let baseIndexes = try base.clientIndexes(of: clients.names)
    var row = Clients(length: options.length, sessionGap: options.sessionGap)
    row.makeRoom(for: 0)
    var spanning: [Int32] = []
    var entries = [Int](repeating: 0, count: pages.count)
    var exits = [Int](repeating: 0, count: pages.count)
    var newClients: [Int32] = []
    for client in 0..<clients.count {
      let index = baseIndexes[client]
      guard index >= 0 else {
        newClients.append(Int32(client))
        entries[Int(pageMap[Int(clients.head(client).first!)])] += 1
        exits[Int(pageMap[Int(clients.tail(client).last!)])] += 1
        continue
      }
      try row.load(
        0, rows: base.clientRows, times: base.clientTimes, at: index, pageCount: base.pages.count)
      exits[Int(row.tail(0).last!)] -= 1
      row.join(0, with: clients, client, pageMap: pageMap, spanning: &spanning, as: Int32(client))
      exits[Int(row.tail(0).last!)] += 1
    }
    for ends in [row.ends, PathEnds().adding(clients.ends, pageMap: pageMap)] {
      for (page, count) in ends.entries { entries[Int(page)] += count }
      for (page, count) in ends.exits { exits[Int(page)] += count }
    }
    (entryChanges, exitChanges) = (entries, exits)
    clientCount = base.clientCount + newClients.count
    // The delta's clients by their ids here: the base's, then the new ones after them.
    var clientMap = baseIndexes.map { Int32($0) }
    for (place, client) in newClients.enumerated() {
      clientMap[Int(client)] = Int32(base.clientCount + place)
    }
    // The clients of visits that named no page, each found among the base's clients or the
    // delta's.
    var pageless = base.pagelessClients
    let pagelessMap = pageless.intern(contentsOf: delta.pagelessClients)
    var pagelessOwners = try base.clientIndexes(of: pageless).map { Int32($0) }
    let inDelta = pageless.ids(in: clients.names, wanted: pagelessOwners.map { $0 < 0 })
    for (id, client) in inDelta.enumerated() where client >= 0 {
      pagelessOwners[id] = clientMap[Int(client)]
    }
    (self.pageless, self.pagelessOwners) = (pageless, pagelessOwners)
    clientsWithoutPage = pagelessOwners.count { $0 < 0 }
    var panelCounts = base.panels
    var funnelCounts = base.funnel
    if !options.panels.isEmpty || !options.funnel.isEmpty {
      panelCounts.append(
        delta.panels, pageMap: pageMap, clientMap: clientMap, pagelessMap: pagelessMap)
      funnelCounts.append(delta.funnelCounts, clientMap: clientMap)
    }
    self.funnelCounts = funnelCounts
    self.panelCounts = panelCounts
    self.newClients = newClients
    deltaClientNames = clients.names
    pathCount =
      clientCount + base.endedPaths + row.ends.entries.values.reduce(0, +)
      + clients.ends.entries.values.reduce(0, +)

    // The delta's sequences (and with `uniqueClients`, its sequences and clients new to the
    // base), and those that span the two, shard by shard on every core.
    let spanningByShard = ShardSequences.byShard(spanning, length: options.length, pages: pages)
    let options = options
    changes = concurrentMap(WindowTable.shardCount) { shard in
      let added =
        options.uniqueClients
        ? Self.newPairs(
          in: shard, of: delta, spanning: spanningByShard[shard], pageMap: pageMap,
          baseIndexes: baseIndexes, base: base, pages: pages)
        : Self.sequences(
          in: shard, of: delta, spanning: spanningByShard[shard], pageMap: pageMap, pages: pages)
      return Self.counted(added, in: base, shard: shard)
    }
    var changedInBase = [UInt64](repeating: 0, count: (base.sequenceCount + 63) / 64)
    var new = 0
    for change in changes {
      for index in change.baseIndexes {
        if index < 0 {
          new += 1
        } else {
          changedInBase[index / 64] |= 1 << (index % 64)
        }
      }
    }
    self.changedInBase = changedInBase
    distinctSequences = base.sequenceCount + new
    total =
      options.uniqueClients
      ? clientCount
      : base.windowTotal + delta.windows.total + spanning.count / (options.length + 1)
  }

  public func ranking(top: Int) -> [RankedSequence] {
    let length = options.length
    let order = RankOrder(pages: pages)
    let limit = top > 0 ? top : Int.max
    // The best of the base's unchanged sequences, a part on each core; then the changed ones.
    let parts = 16
    let size = (base.sequenceCount + parts - 1) / parts
    let perPart = concurrentMap(parts) { part in
      var best = Leaderboard(limit: limit, order: order)
      var ids = [Int32](repeating: 0, count: length)
      let count = base.sequenceCount
      for index in min(count, part * size)..<min(count, (part + 1) * size) {
        let count = Int(base.windowCounts[index])
        guard best.mayKeep(count), changedInBase[index / 64] & 1 << (index % 64) == 0 else {
          continue
        }
        for offset in 0..<length { ids[offset] = base.windowIds[index * length + offset] }
        ids.withUnsafeBufferPointer { best.offer($0, count: count) }
      }
      return best.candidates
    }
    var best = Leaderboard(limit: limit, order: order)
    for candidate in perPart.joined() {
      candidate.pages.withUnsafeBufferPointer { best.offer($0, count: candidate.count) }
    }
    for change in changes {
      change.ids.withUnsafeBufferPointer { ids in
        for (index, count) in change.counts.enumerated() where best.mayKeep(count) {
          best.offer(
            UnsafeBufferPointer(rebasing: ids[index * length..<(index + 1) * length]),
            count: count)
        }
      }
    }
    return best.candidates.map { candidate in
      RankedSequence(pages: candidate.pages.map { Array(pages.bytes($0)) }, count: candidate.count)
    }
  }

  public func panels(top: Int) -> PanelReport {
    let (pages, base) = (self.pages, self.base)
    let (newClients, deltaNames) = (self.newClients, deltaClientNames)
    let tables = PanelTables(
      panelCounts, panels: options.panels, visits: lines - malformedLines - filteredLines,
      pageName: { Array(pages.bytes(Int32($0))) },
      clientName: { client in
        guard client >= base.clientCount else {
          // Every name of the base was checked when it was mapped (`IndexedPartial`).
          return (try? base.clientName(client)).map { Array($0) } ?? []
        }
        return Array(deltaNames.bytes(newClients[client - base.clientCount]))
      }, pageless: pageless, pagelessOwners: pagelessOwners)
    return PanelReport(tables: tables, top: top)
  }

  public func funnel() -> FunnelReport? {
    funnelCounts.isEmpty ? nil : funnelCounts.report()
  }

  public func ranking(of end: PathEnd, top: Int) -> [RankedSequence] {
    let totals = end == .entry ? base.entryCounts : base.exitCounts
    let counts = (end == .entry ? entryChanges : exitChanges).enumerated().map { page, change in
      change + (page < totals.count ? Int(totals[page]) : 0)
    }
    return Partial.ranking(counts, pageBytes: { Array(pages.bytes($0)) }, top: top)
  }
}

/// What the delta changes in one shard: the sequences' pages, their counts in all, and the
/// index of each among the base's (-1 for a new one).
private struct ShardChanges {
  var ids: [Int32] = []
  var counts: [Int] = []
  var baseIndexes: [Int] = []
}

extension LayeredResult {
  /// The delta's sequences of `shard` and the spanning ones, with their counts.
  fileprivate static func sequences(
    in shard: Int, of delta: Partial, spanning: [Int32], pageMap: [Int32], pages: Interner
  ) -> ShardSequences {
    let length = delta.options.length
    let table = delta.windows.shards[shard]
    var added = ShardSequences()
    added.ids = [Int32](repeating: 0, count: (table.count + spanning.count / (length + 1)) * length)
    added.counts = [Int](repeating: 1, count: table.count)
    added.ids.withUnsafeMutableBufferPointer { ids in
      added.counts.withUnsafeMutableBufferPointer { counts in
        var counts64 = [Int64](repeating: 0, count: table.count)
        counts64.withUnsafeMutableBufferPointer {
          table.copyEntries(ids: ids.baseAddress!, counts: $0.baseAddress!)
        }
        for index in 0..<table.count { counts[index] = Int(counts64[index]) }
        for index in 0..<table.count * length { ids[index] = pageMap[Int(ids[index])] }
        var at = table.count * length
        for start in stride(from: 0, to: spanning.count, by: length + 1) {
          for offset in 0..<length { ids[at + offset] = spanning[start + offset] }
          at += length
        }
      }
    }
    added.counts += repeatElement(1, count: spanning.count / (length + 1))
    return ShardSequences.combined(added, width: length, pages: pages, length: length)
  }

  /// With `uniqueClients`: the sequences of `shard` whose clients the delta adds to them
  /// (pairs of the delta and spanning ones that the base does not hold), each counted once
  /// per such client.
  fileprivate static func newPairs(
    in shard: Int, of delta: Partial, spanning: [Int32], pageMap: [Int32], baseIndexes: [Int],
    base: IndexedPartial, pages: Interner
  ) -> ShardSequences {
    let length = delta.options.length
    let width = length + 1
    var pairs = ShardSequences()
    delta.pairs.shards[shard].forEachEntry { ids, _ in
      for id in ids.prefix(length) { pairs.ids.append(pageMap[Int(id)]) }
      pairs.ids.append(ids[length])
      pairs.counts.append(1)
    }
    pairs.ids += spanning
    pairs.counts += repeatElement(1, count: spanning.count / width)
    pairs = ShardSequences.combined(pairs, width: width, pages: pages, length: length) {
      Hashing.pair(sequence: $0, client: delta.clients.names.hashes[Int($1)])
    }
    // The pairs the base holds are found by walking its pairs of this shard alongside.
    let range = base.pairHashes.range(ofShard: shard)
    var next = range.lowerBound
    var new = ShardSequences()
    for pair in 0..<pairs.counts.count {
      let hash = pairs.hashes[pair]
      let ids = pairs.ids[pair * width..<(pair + 1) * width]
      let client = Int(ids.last!)
      while next < range.upperBound && base.pairHashes[next] < hash { next += 1 }
      var candidate = next
      var known = false
      while !known && baseIndexes[client] >= 0 && candidate < range.upperBound
        && base.pairHashes[candidate] == hash
      {
        known =
          Int(base.pairIds[candidate * width + length]) == baseIndexes[client]
          && (0..<length).allSatisfy {
            base.pairIds[candidate * width + $0] == ids[ids.startIndex + $0]
          }
        candidate += 1
      }
      if !known {
        new.ids += ids.prefix(length)
        new.counts.append(1)
      }
    }
    return ShardSequences.combined(new, width: length, pages: pages, length: length)
  }

  /// The `added` sequences of `shard` with the base's counts added, and which of the base's
  /// each is, found by walking the base's sequences of that shard alongside.
  fileprivate static func counted(_ added: ShardSequences, in base: IndexedPartial, shard: Int)
    -> ShardChanges
  {
    let length = base.options.length
    let range = base.windowHashes.range(ofShard: shard)
    var next = range.lowerBound
    var changes = ShardChanges()
    changes.ids = added.ids
    changes.counts.reserveCapacity(added.counts.count)
    changes.baseIndexes.reserveCapacity(added.counts.count)
    let (hashes, ids) = (base.windowHashes, base.windowIds)
    // First where each hash would be among the base's (a walk through the hashes alone), then
    // the sequences there compared and counted, those of later ones asked of memory ahead.
    var places = [Int](repeating: 0, count: added.hashes.count)
    for (index, hash) in added.hashes.enumerated() {
      while next < range.upperBound && hashes[next] < hash { next += 1 }
      places[index] = next
    }
    let ahead = 8
    let (idBytes, countBytes) = (ids.bytes.baseAddress, base.windowCounts.bytes.baseAddress)
    for (index, hash) in added.hashes.enumerated() {
      if index + ahead < places.count, let idBytes, let countBytes {
        let later = places[index + ahead]
        prefetch(idBytes + later * length * MemoryLayout<Int32>.size)
        prefetch(countBytes + later * MemoryLayout<Int64>.size)
      }
      var candidate = places[index]
      var found = -1
      while found < 0 && candidate < range.upperBound && hashes[candidate] == hash {
        var same = true
        for offset in 0..<length
        where ids[candidate * length + offset] != added.ids[index * length + offset] {
          same = false
        }
        if same { found = candidate }
        candidate += 1
      }
      changes.counts.append(added.counts[index] + (found < 0 ? 0 : Int(base.windowCounts[found])))
      changes.baseIndexes.append(found)
    }
    return changes
  }
}
