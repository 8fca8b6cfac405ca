import CPrefetch

/// The clients of a partial result: their names, and each one's first and last pages, which
/// is all that the sequences crossing into the next part need. With a session gap, also the
/// times of each one's first and last visits, and the entry and exit pages of the paths that
/// began or ended inside the part.
struct Clients: Sendable {
  /// Pages per sequence.
  let length: Int
  /// How many first and last pages each client keeps: one fewer than a sequence, and one at
  /// least (its path's entry and exit).
  let keep: Int
  /// Seconds between two visits that start a new path; nil when paths never break.
  let sessionGap: Int64?
  var names = Interner()
  /// Per client, `stride` words: its last `keep` pages of its current path (oldest first),
  /// its first `keep` pages, then a `PathCounts` word.
  var pages: [Int32] = []
  /// With a session gap, per client: the time of its first visit, then of its last.
  var times: [Int64] = []
  /// The entry and exit pages of paths known to have begun or ended (a gap seen). The first
  /// path's entry and the last path's exit of each client are its first and last pages.
  var ends = PathEnds()

  init(length: Int, sessionGap: Int64?) {
    self.length = length
    keep = Self.keep(length: length)
    self.sessionGap = sessionGap
  }

  /// The first and last pages a client keeps for sequences of `length` pages.
  static func keep(length: Int) -> Int { max(1, length - 1) }

  var count: Int { names.count }
  /// The words of `pages` per client.
  var stride: Int { 2 * keep + 1 }

  /// Makes room for `client` when it is new.
  mutating func makeRoom(for client: Int) {
    if client * stride == pages.count {
      pages.append(contentsOf: repeatElement(0, count: stride))
      if sessionGap != nil { times.append(contentsOf: [0, 0]) }
    }
  }

  /// Adds `page`, whose hash is `pageHash`, to the pages of the client at `base`, whose last
  /// pages' hashes are at `hashes`; when that completes a sequence of `length` pages, writes
  /// them to `window` and their hashes to `windowHashes`, and returns true.
  @inline(__always)
  static func visit(
    _ base: UnsafeMutablePointer<Int32>, keep: Int, length: Int, page: Int32,
    window: UnsafeMutablePointer<Int32>, hashes: UnsafeMutablePointer<UInt64>,
    pageHash: UInt64, windowHashes: UnsafeMutablePointer<UInt64>
  ) -> Bool {
    var counts = PathCounts(base[2 * keep])
    if counts.heads < keep && !counts.closed {
      base[keep + counts.heads] = page
      counts.heads += 1
    }
    if length == 1 {
      // Each visit is a sequence; the page is kept as the path's last.
      window[0] = page
      windowHashes[0] = pageHash
      base[0] = page
      hashes[0] = pageHash
      counts.tails = 1
      base[2 * keep] = counts.word
      return true
    }
    let completes = counts.tails == keep
    if completes {
      for index in 0..<keep {
        window[index] = base[index]
        windowHashes[index] = hashes[index]
      }
      window[keep] = page
      windowHashes[keep] = pageHash
      for index in 0..<(keep - 1) {
        base[index] = base[index + 1]
        hashes[index] = hashes[index + 1]
      }
      base[keep - 1] = page
      hashes[keep - 1] = pageHash
    } else {
      base[counts.tails] = page
      hashes[counts.tails] = pageHash
      counts.tails += 1
    }
    base[2 * keep] = counts.word
    return completes
  }

  /// With a session gap: notes that `client` visits `page` at `time`, and when that is more
  /// than the gap after its last visit, ends its path there: its last page is an exit,
  /// `page` an entry, and its last pages start again. Call before `visit`.
  mutating func arrive(_ client: Int, at time: Int64, page: Int32, gap: Int64) {
    let base = client * stride
    var counts = PathCounts(pages[base + 2 * keep])
    if counts.heads == 0 {
      times[2 * client] = time
    } else if time - times[2 * client + 1] > gap {
      endPath(at: base, counts: &counts, next: page)
      pages[base + 2 * keep] = counts.word
    }
    times[2 * client + 1] = time
  }

  /// Ends the current path of the client at `base` before the path that starts with `next`:
  /// counts the exit and the entry, and empties its last pages.
  private mutating func endPath(at base: Int, counts: inout PathCounts, next: Int32) {
    ends.exits[pages[base + counts.tails - 1], default: 0] += 1
    ends.entries[next, default: 0] += 1
    counts.tails = 0
    counts.closed = true
  }

  /// Sets a client's pages as read from a serialized partial.
  mutating func restore(
    _ client: Int, head: [Int32], tail: [Int32], closed: Bool, first: Int64, last: Int64
  ) {
    makeRoom(for: client)
    let base = client * stride
    for (offset, page) in tail.enumerated() { pages[base + offset] = page }
    for (offset, page) in head.enumerated() { pages[base + keep + offset] = page }
    pages[base + 2 * keep] = PathCounts(tails: tail.count, heads: head.count, closed: closed).word
    if sessionGap != nil {
      times[2 * client] = first
      times[2 * client + 1] = last
    }
  }

  /// Checks a client's row of `pages` as read from a file, its words given by `word`: a
  /// `PathCounts` word with at least one first and one last page, and those pages among
  /// `pageCount`.
  static func check(keep: Int, pageCount: Int, word: (Int) -> Int32) throws(PartialFileError) {
    let counts = PathCounts(word(2 * keep))
    guard counts.word == word(2 * keep), (1...keep).contains(counts.tails),
      (1...keep).contains(counts.heads)
    else { throw PartialFileError(description: "a client's paths are of the wrong form") }
    for index in 0..<counts.tails where !(0..<pageCount).contains(Int(word(index))) {
      throw PartialFileError(description: "a client's page is out of range")
    }
    for index in keep..<keep + counts.heads where !(0..<pageCount).contains(Int(word(index))) {
      throw PartialFileError(description: "a client's page is out of range")
    }
  }

  /// Checks a client's first and last times as read from a file.
  static func check(first: Int64, last: Int64) throws(PartialFileError) {
    guard Partial.timeBounds.contains(first), Partial.timeBounds.contains(last), first <= last
    else { throw PartialFileError(description: "a client's times are out of range") }
  }

  /// Sets the row of pages (and times) of `client` to the `index`th of `rows` (and `times`)
  /// as read from a file, checked.
  mutating func load(
    _ client: Int, rows: WordView<Int32>, times: WordView<Int64>, at index: Int, pageCount: Int
  ) throws(PartialFileError) {
    let row = index * stride
    try Self.check(keep: keep, pageCount: pageCount) { rows[row + $0] }
    for offset in 0..<stride { pages[client * stride + offset] = rows[row + offset] }
    if sessionGap != nil {
      try Self.check(first: times[2 * index], last: times[2 * index + 1])
      self.times[2 * client] = times[2 * index]
      self.times[2 * client + 1] = times[2 * index + 1]
    }
  }

  /// The pages and times of the clients in `order`, laid out as `pages` and `times`.
  func rows(in order: [Int32]) -> (pages: [Int32], times: [Int64]) {
    var (pages, times) = ([Int32](), [Int64]())
    pages.reserveCapacity(self.pages.count)
    times.reserveCapacity(self.times.count)
    for client in order.map(Int.init) {
      pages.append(contentsOf: self.pages[client * stride..<(client + 1) * stride])
      if sessionGap != nil { times.append(contentsOf: self.times[2 * client...2 * client + 1]) }
    }
    return (pages, times)
  }

  func counts(_ client: Int) -> PathCounts { PathCounts(pages[client * stride + 2 * keep]) }

  /// The first pages of `client`: of its first path when a gap ended that.
  func head(_ client: Int) -> ArraySlice<Int32> {
    let base = client * stride
    return pages[base + keep..<base + keep + counts(client).heads]
  }

  /// The last pages of `client`'s current path, oldest first.
  func tail(_ client: Int) -> ArraySlice<Int32> {
    let base = client * stride
    return pages[base..<base + counts(client).tails]
  }

  /// Adds the clients of the part that follows, whose page ids map to these by `pageMap`.
  /// Returns their ids here, and the sequences that span the two parts: `length` pages
  /// and the client each.
  mutating func append(_ next: Clients, pageMap: [Int32]) -> (ids: [Int32], spanning: [Int32]) {
    let known = count
    let ids = names.intern(contentsOf: next.names)
    ends.add(next.ends, pageMap: pageMap)
    var spanning: [Int32] = []
    let ahead = Tuning.prefetchDistance
    for old in 0..<next.count {
      if old + ahead < ids.count {
        let later = Int(ids[old + ahead]) * stride
        if later < pages.count {
          pages.withUnsafeBufferPointer { prefetch($0.baseAddress! + later) }
        }
      }
      let client = ids[old]
      makeRoom(for: Int(client))
      if client >= known {
        // New here, so its pages are those it has there.
        copy(next, old, to: Int(client), pageMap: pageMap)
        continue
      }
      join(Int(client), with: next, old, pageMap: pageMap, spanning: &spanning, as: client)
    }
    return (ids, spanning)
  }

  /// Joins the visits of client `old` of the part that follows (`next`, whose page ids map
  /// to these by `pageMap`) to those of `client` here: its pages and times become those of
  /// both parts, the sequences that span them go to `spanning` (`length` pages and
  /// `spanningClient` each), and a gap between the parts ends a path.
  mutating func join(
    _ client: Int, with next: Clients, _ old: Int, pageMap: [Int32], spanning: inout [Int32],
    as spanningClient: Int32
  ) {
    let base = client * stride
    let nextHead = next.head(old)
    let nextTail = next.tail(old)
    let nextCounts = next.counts(old)
    var counts = PathCounts(pages[base + 2 * keep])
    if let sessionGap {
      let gap = next.times[2 * old] - times[2 * client + 1]
      times[2 * client + 1] = next.times[2 * old + 1]
      if gap > sessionGap {
        // The path ends between the parts: no sequence spans them.
        endPath(at: base, counts: &counts, next: pageMap[Int(nextHead.first!)])
        for (offset, page) in nextTail.enumerated() {
          pages[base + offset] = pageMap[Int(page)]
        }
        counts.tails = nextTail.count
        pages[base + 2 * keep] = counts.word
        return
      }
    }
    // This part's last pages and the next one's first, then its last, in a buffer kept on
    // the stack.
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * keep) { joined in
      for index in 0..<counts.tails { joined[index] = pages[base + index] }
      for (offset, page) in nextHead.enumerated() {
        joined[counts.tails + offset] = pageMap[Int(page)]
      }
      let joinedCount = counts.tails + nextHead.count
      var start = 0
      // A spanning sequence starts here and ends there.
      while start < counts.tails && start + length <= joinedCount
        && start + length > counts.tails
      {
        spanning.append(contentsOf: joined[start..<start + length])
        spanning.append(spanningClient)
        start += 1
      }
      // Fewer than `keep` first pages, and no gap, means all pages so far, which `joined`
      // starts with.
      while !counts.closed && counts.heads < keep && counts.heads < joinedCount {
        pages[base + keep + counts.heads] = joined[counts.heads]
        counts.heads += 1
      }
      // When a gap ended the next part's first path, the current path is its last one.
      let tails = nextCounts.closed ? 0 : counts.tails
      for (offset, page) in nextTail.enumerated() { joined[tails + offset] = pageMap[Int(page)] }
      let newTails = min(keep, tails + nextTail.count)
      let drop = tails + nextTail.count - newTails
      for index in 0..<newTails { pages[base + index] = joined[drop + index] }
      counts.tails = newTails
    }
    counts.closed = counts.closed || nextCounts.closed
    pages[base + 2 * keep] = counts.word
  }

  /// Sets the pages (and times) of `client` to those of `source` in `other`, mapped by
  /// `pageMap`.
  mutating func copy(_ other: Clients, _ source: Int, to client: Int, pageMap: [Int32]) {
    let from = source * stride
    let base = client * stride
    let counts = other.counts(source)
    for index in 0..<counts.tails { pages[base + index] = pageMap[Int(other.pages[from + index])] }
    for index in keep..<keep + counts.heads {
      pages[base + index] = pageMap[Int(other.pages[from + index])]
    }
    pages[base + 2 * keep] = counts.word
    if sessionGap != nil {
      times[2 * client] = other.times[2 * source]
      times[2 * client + 1] = other.times[2 * source + 1]
    }
  }
}

/// How many of a client's last and first pages are set, and whether its first path has ended
/// (so its first pages are complete even when fewer than a sequence), packed in one word.
struct PathCounts {
  var tails: Int
  var heads: Int
  var closed: Bool

  init(tails: Int, heads: Int, closed: Bool) {
    self.tails = tails
    self.heads = heads
    self.closed = closed
  }

  @inline(__always)
  init(_ word: Int32) {
    tails = Int(word & 0xff)
    heads = Int(word >> 8 & 0xff)
    closed = word & 0x10000 != 0
  }

  @inline(__always)
  var word: Int32 { Int32(tails | heads << 8 | (closed ? 0x10000 : 0)) }
}

/// Counts of entry and exit pages by page id.
struct PathEnds: Sendable {
  var entries: [Int32: Int] = [:]
  var exits: [Int32: Int] = [:]

  /// These counts and those of `other`, whose page ids map to these by `pageMap`.
  func adding(_ other: PathEnds, pageMap: [Int32]) -> PathEnds {
    var sum = self
    sum.add(other, pageMap: pageMap)
    return sum
  }

  /// Adds the counts of `other`, whose page ids map to these by `pageMap`.
  mutating func add(_ other: PathEnds, pageMap: [Int32]) {
    for (page, count) in other.entries { entries[pageMap[Int(page)], default: 0] += count }
    for (page, count) in other.exits { exits[pageMap[Int(page)], default: 0] += count }
  }
}
