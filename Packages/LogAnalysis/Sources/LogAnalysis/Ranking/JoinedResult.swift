/// The analysis of several parts of a log, in order, each an `IndexedPartial` (on disk),
/// worked out by walking their clients and their sequences side by side in the order of
/// their hashes, without building a table: the same numbers and rankings as the parts'
/// partial results appended in order, at the cost of reading each once.
public struct JoinedResult: RankedAnalysis {
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

  private let walk: HashWalk
  /// The first part's pages, then each next part's new ones.
  private let pages: Interner
  /// Per shard, what the parts' own sequences lack: those that span parts (and, with
  /// `uniqueClients`, one less for each client counted again in a later part), by ids here.
  private let extras: [ShardSequences]
  /// How many paths enter and leave by each page.
  private let entryCounts: [Int]
  private let exitCounts: [Int]
  /// What the panels and the funnel counted, by the ids here.
  private let panelCounts: PanelCounts
  private let funnelCounts: FunnelCounts
  /// Where each client's name is: its first part (high half) and its index there.
  private let clientOwners: [UInt64]
  /// The clients of visits that named no page, and the id of the client of each name (-1 for
  /// none).
  private let pageless: Interner
  private let pagelessOwners: [Int32]
  /// The best `keptPerShard` sequences of each shard, found while they were counted: what
  /// rankings of up to that many need.
  private let keptBest: [[Candidate]]
  private static let keptPerShard = 100

  /// The result of `parts` (of the same options, at least one) in order; throws when one holds
  /// an id out of range, repeats a client, or has its index out of order.
  package init(parts: [IndexedPartial]) throws(PartialFileError) {
    precondition(!parts.isEmpty, "a join of no parts")
    let options = parts[0].options
    precondition(parts.allSatisfy { $0.options == options }, "parts of other options")
    self.options = options
    // The headers summed as `Partial.append` sums them: a part after nothing (no line, no
    // page, no client) is as it is.
    var header = parts[0].header
    var noTables = parts[0].pages.count == 0 && parts[0].clientCount == 0
    for part in parts.dropFirst() {
      if noTables && header.lines == 0 && header.commentLines == 0 {
        header = part.header
      } else {
        header.append(part.header)
      }
      noTables = noTables && part.pages.count == 0 && part.clientCount == 0
    }
    (lines, malformedLines, filteredLines) = (
      header.lines, header.malformedLines, header.filteredLines
    )
    (commentLines, unreadableRequests) = (header.commentLines, header.unreadableRequests)
    formatName = header.formatName
    firstMalformedLine = header.firstMalformed.map { String(decoding: $0, as: UTF8.self) }
    (timeRange, timeRangeOffsets) = (header.timeRange, header.timeRangeOffsets)
    for part in parts { try part.checkSequences() }

    var pages = parts[0].pages
    let pageMaps = parts.map { pages.intern(contentsOf: $0.pages) }
    self.pages = pages
    let clients = try ClientMatch(parts)
    clientOwners = clients.owners
    clientCount = clients.owners.count
    // The clients of visits that named no page, each found among the parts' clients; and what
    // the panels and the funnel counted, by the ids here: each part's clients mapped once.
    var pageless = Interner()
    let pagelessMaps = parts.map { pageless.intern(contentsOf: $0.pagelessClients) }
    var pagelessOwners = [Int32](repeating: -1, count: pageless.count)
    var panelCounts = parts[0].panels
    var funnelCounts = parts[0].funnel
    for (number, part) in parts.enumerated() {
      let clientMap = clients.map(of: number)
      for (id, index) in try part.clientIndexes(of: pageless).enumerated() where index >= 0 {
        pagelessOwners[id] = clientMap[index]
      }
      guard number > 0 else { continue }
      panelCounts.append(
        part.panels, pageMap: pageMaps[number], clientMap: clientMap,
        pagelessMap: pagelessMaps[number])
      funnelCounts.append(part.funnel, clientMap: clientMap)
    }
    (self.pageless, self.pagelessOwners) = (pageless, pagelessOwners)
    clientsWithoutPage = pagelessOwners.count { $0 < 0 }
    (self.panelCounts, self.funnelCounts) = (panelCounts, funnelCounts)
    walk = HashWalk(parts: parts, pageMaps: pageMaps, clients: clients)

    // The paths entering and leaving by each page as the parts count them, put right as the
    // clients of more than one part are joined.
    var entries = [Int](repeating: 0, count: pages.count)
    var exits = [Int](repeating: 0, count: pages.count)
    for (part, map) in zip(parts, pageMaps) {
      for page in 0..<part.pages.count {
        entries[Int(map[page])] += Int(part.entryCounts[page])
        exits[Int(map[page])] += Int(part.exitCounts[page])
      }
    }
    let (spanning, joinsEnded) = try Self.join(
      clients, of: parts, pageMaps: pageMaps, options: options, entries: &entries, exits: &exits)
    (entryCounts, exitCounts) = (entries, exits)
    pathCount = clientCount + parts.reduce(joinsEnded) { $0 + $1.endedPaths }

    // What the spanning sequences add to the parts' own, shard by shard on every core; then
    // the sequences counted.
    let spanningByShard = ShardSequences.byShard(spanning, length: options.length, pages: pages)
    let walk = walk
    let clientHashes: [UInt64] =
      !options.uniqueClients
      ? []
      : clients.owners.map { owner in
        let (number, client) = ClientMatch.unpacked(owner)
        return parts[number].clientHashes[client]
      }
    extras = concurrentMap(WindowTable.shardCount) { shard in
      options.uniqueClients
        ? walk.newClients(
          in: shard, spanning: spanningByShard[shard], pages: pages, clientHashes: clientHashes)
        : walk.spanningSequences(spanningByShard[shard], pages: pages)
    }
    let extras = extras
    // The sequences counted, and the best of each shard kept, in one walk.
    let order = RankOrder(pages: pages)
    let shards = concurrentMap(WindowTable.shardCount) { shard in
      walk.best(in: shard, extra: extras[shard], limit: Self.keptPerShard, order: order)
    }
    distinctSequences = shards.reduce(0) { $0 + $1.sequences }
    keptBest = shards.map(\.best)
    total =
      options.uniqueClients
      ? clientCount
      : parts.reduce(spanning.count / (options.length + 1)) { $0 + $1.windowTotal }
  }

  public func ranking(top: Int) -> [RankedSequence] {
    let order = RankOrder(pages: pages)
    let limit = top > 0 ? top : Int.max
    let (walk, extras) = (walk, extras)
    // The best `top` of all are among the best `top` of each shard.
    let perShard =
      limit <= Self.keptPerShard
      ? keptBest
      : concurrentMap(WindowTable.shardCount) { shard in
        walk.best(in: shard, extra: extras[shard], limit: limit, order: order).best
      }
    var best = Leaderboard(limit: limit, order: order)
    for candidate in perShard.joined() {
      candidate.pages.withUnsafeBufferPointer { best.offer($0, count: candidate.count) }
    }
    return best.candidates.map { candidate in
      RankedSequence(pages: candidate.pages.map { Array(pages.bytes($0)) }, count: candidate.count)
    }
  }

  public func ranking(of end: PathEnd, top: Int) -> [RankedSequence] {
    Partial.ranking(
      end == .entry ? entryCounts : exitCounts, pageBytes: { Array(pages.bytes($0)) }, top: top)
  }

  public func panels(top: Int) -> PanelReport {
    let (pages, parts, owners) = (self.pages, walk.parts, clientOwners)
    let tables = PanelTables(
      panelCounts, panels: options.panels, visits: lines - malformedLines - filteredLines,
      pageName: { Array(pages.bytes(Int32($0))) },
      clientName: { client in
        let (number, index) = ClientMatch.unpacked(owners[client])
        // Every name was read when the clients were matched.
        return (try? parts[number].clientName(index)).map { Array($0) } ?? []
      }, pageless: pageless, pagelessOwners: pagelessOwners)
    return PanelReport(tables: tables, top: top)
  }

  public func funnel() -> FunnelReport? {
    funnelCounts.isEmpty ? nil : funnelCounts.report()
  }
}

extension JoinedResult {
  /// Joins the clients of more than one part, in the order of the parts, a run of them on
  /// each core: puts right the paths entering and leaving by each page (`entries` and
  /// `exits`, the parts' counts), and returns the sequences that span parts (`length` pages
  /// and the client each) and how many paths the gaps between parts ended.
  fileprivate static func join(
    _ clients: ClientMatch, of parts: [IndexedPartial], pageMaps: [[Int32]],
    options: AnalysisOptions, entries: inout [Int], exits: inout [Int]
  ) throws(PartialFileError) -> (spanning: [Int32], endedPaths: Int) {
    let groups = clients.shared.count - 1
    let runs = min(groups, 16)
    let joined = concurrentMap(runs) { run in
      Result { () throws(PartialFileError) in
        try JoinedRun(
          groups: groups * run / runs..<groups * (run + 1) / runs, of: clients, parts: parts,
          pageMaps: pageMaps, options: options)
      }
    }
    var spanning: [Int32] = []
    var endedPaths = 0
    for run in joined {
      let run = try run.get()
      spanning += run.spanning
      for page in run.entriesLost { entries[Int(page)] -= 1 }
      for page in run.exitsLost { exits[Int(page)] -= 1 }
      for (page, count) in run.ends.entries { entries[Int(page)] += count }
      for (page, count) in run.ends.exits { exits[Int(page)] += count }
      endedPaths += run.ends.entries.values.reduce(0, +)
    }
    return (spanning, endedPaths)
  }
}

/// A run of the clients of more than one part (`ClientMatch.shared`'s groups), joined in the
/// order of the parts.
private struct JoinedRun {
  /// The sequences that span parts: `length` pages and the client each.
  var spanning: [Int32] = []
  /// A page for each path that no longer enters or leaves by it, by the ids here: a client's
  /// path in one part goes on in the next.
  var entriesLost: [Int32] = []
  var exitsLost: [Int32] = []
  /// The paths entering and leaving by each page, of the clients joined (their last paths
  /// and those the gaps between parts ended).
  var ends = PathEnds()

  init(
    groups: Range<Int>, of clients: ClientMatch, parts: [IndexedPartial], pageMaps: [[Int32]],
    options: AnalysisOptions
  ) throws(PartialFileError) {
    var row = Clients(length: options.length, sessionGap: options.sessionGap)
    var other = row
    row.makeRoom(for: 0)
    other.makeRoom(for: 0)
    for group in groups {
      let places = clients.shared[group]..<clients.shared[group + 1]
      var id: Int32 = 0
      for (index, place) in clients.places[places].enumerated() {
        let (number, client) = ClientMatch.unpacked(place)
        try other.load(
          0, rows: parts[number].clientRows, times: parts[number].clientTimes, at: client,
          pageCount: parts[number].pages.count)
        let map = pageMaps[number]
        exitsLost.append(map[Int(other.tail(0).last!)])
        if index == 0 {
          id = clients.id(number, client)
          row.copy(other, 0, to: 0, pageMap: map)
        } else {
          entriesLost.append(map[Int(other.head(0).first!)])
          row.join(0, with: other, 0, pageMap: map, spanning: &spanning, as: id)
        }
      }
      ends.exits[row.tail(0).last!, default: 0] += 1
    }
    ends.entries.merge(row.ends.entries, uniquingKeysWith: +)
    ends.exits.merge(row.ends.exits, uniquingKeysWith: +)
  }
}
