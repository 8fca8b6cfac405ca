import Dispatch

extension Partial {
  /// The sequences, most common first; ties in the order of their pages compared as bytes.
  /// `top` 0 returns them all.
  public func ranking(top: Int) -> [RankedSequence] {
    let order = RankOrder(pages: pages)
    let limit = top > 0 ? top : Int.max
    // The best of each shard, on every core, then the best of those.
    let perShard = concurrentMap(WindowTable.shardCount) { shard in
      var best = Leaderboard(limit: limit, order: order)
      windows.shards[shard].forEachEntry { best.offer($0, count: $1) }
      return best.candidates
    }
    var best = Leaderboard(limit: limit, order: order)
    for candidate in perShard.joined() {
      candidate.pages.withUnsafeBufferPointer { best.offer($0, count: candidate.count) }
    }
    return best.candidates.map { candidate in
      RankedSequence(pages: candidate.pages.map { Array(pages.bytes($0)) }, count: candidate.count)
    }
  }
}

/// A sequence's page ids and count.
struct Candidate {
  var pages: [Int32]
  var count: Int
}

/// The ranking order: higher counts first; equal counts by their pages compared one by one
/// as bytes.
struct RankOrder: Sendable {
  /// Each page's place among all pages sorted as bytes.
  private var places: [Int32]

  init(pages: Interner) {
    places = Array(repeating: 0, count: pages.count)
    for (place, page) in pages.idsInByteOrder().enumerated() { places[Int(page)] = Int32(place) }
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
struct Leaderboard {
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

  /// Whether a sequence counted `count` times may still be kept: false once the board is
  /// full of sequences counted more often.
  func mayKeep(_ count: Int) -> Bool {
    limit == .max || kept.count < limit || count >= kept.last!.count
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

/// The first or the last page of each path.
public enum PathEnd: String, Sendable, CaseIterable {
  case entry, exit
}

extension Partial {
  /// The entry (or exit) pages of the paths, most common first, ties in the order of their
  /// bytes, each a sequence of one page; `top` 0 returns them all. A path is a client's
  /// visits between gaps of more than `sessionGap` (all its visits without one).
  public func ranking(of end: PathEnd, top: Int) -> [RankedSequence] {
    Self.ranking(pathEndCounts(end).map(Int.init), pageBytes: { Array(pages.bytes($0)) }, top: top)
  }

  /// How many paths enter (or leave) by each page, by page id: the paths that began (or
  /// ended) inside, and the first (or last) path of each client.
  func pathEndCounts(_ end: PathEnd) -> [Int64] {
    var counts = [Int64](repeating: 0, count: pages.count)
    for (page, count) in end == .entry ? clients.ends.entries : clients.ends.exits {
      counts[Int(page)] += Int64(count)
    }
    for client in 0..<clients.count {
      let page = end == .entry ? clients.head(client).first : clients.tail(client).last
      if let page { counts[Int(page)] += 1 }
    }
    return counts
  }

  /// The pages counted in `counts` (by page id; 0 for none), most common first, ties in the
  /// order of their bytes; `top` 0 returns them all.
  static func ranking(
    _ counts: [Int], pageBytes: (Int32) -> [UInt8], top: Int
  ) -> [RankedSequence] {
    let ranked = counts.enumerated().filter { $0.element > 0 }
      .map { (page: pageBytes(Int32($0.offset)), count: $0.element) }
      .sorted {
        $0.count != $1.count ? $0.count > $1.count : $0.page.lexicographicallyPrecedes($1.page)
      }
    return (top > 0 ? Array(ranked.prefix(top)) : ranked).map {
      RankedSequence(pages: [$0.page], count: $0.count)
    }
  }

  /// How many paths the clients took: one per client, and one more per gap.
  public var pathCount: Int {
    clients.count + clients.ends.entries.values.reduce(0, +)
  }
}
