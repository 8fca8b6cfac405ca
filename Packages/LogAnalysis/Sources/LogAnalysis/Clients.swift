import CPrefetch

/// The clients of a partial result: their names, and each one's first and last pages, which
/// is all that the sequences crossing into the next part need.
struct Clients: Sendable {
  /// How many first and last pages each client keeps: one fewer than a sequence.
  let keep: Int
  var names = Interner()
  /// Per client, `stride` words: its last `keep` pages (oldest first), its first `keep`
  /// pages, then how many of each are set (the last pages' in the low byte).
  var pages: [Int32] = []

  init(keep: Int) {
    self.keep = keep
  }

  var count: Int { names.count }
  /// The words of `pages` per client.
  var stride: Int { 2 * keep + 1 }

  /// The first word of `client`'s pages, making room for it when it is new.
  mutating func base(of client: Int) -> Int {
    let base = client * stride
    if base == pages.count {
      pages.append(contentsOf: repeatElement(0, count: stride))
    }
    return base
  }

  /// Adds `page` to the pages of the client at `base`; when that completes a sequence,
  /// writes its pages to `window` and returns true.
  static func visit(
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

  /// Sets a client's pages as read from a serialized partial.
  mutating func restore(_ client: Int, head: [Int32], tail: [Int32]) {
    let base = base(of: client)
    for (offset, page) in tail.enumerated() { pages[base + offset] = page }
    for (offset, page) in head.enumerated() { pages[base + keep + offset] = page }
    pages[base + 2 * keep] = Int32(tail.count | head.count << 8)
  }

  /// The first pages of `client`.
  func head(_ client: Int) -> ArraySlice<Int32> {
    let base = client * stride
    return pages[base + keep..<base + keep + Int(pages[base + 2 * keep] >> 8)]
  }

  /// The last pages of `client`, oldest first.
  func tail(_ client: Int) -> ArraySlice<Int32> {
    let base = client * stride
    return pages[base..<base + Int(pages[base + 2 * keep] & 0xff)]
  }

  /// Adds the clients of the part that follows, whose page ids map to these by `pageMap`.
  /// Returns their ids here, and the sequences that span the two parts: `keep + 1` pages
  /// and the client each.
  mutating func append(_ next: Clients, pageMap: [Int32]) -> (ids: [Int32], spanning: [Int32]) {
    let known = count
    let ids = names.intern(contentsOf: next.names)
    let length = keep + 1
    var spanning: [Int32] = []
    var joined = [Int32](repeating: 0, count: 2 * keep)
    let ahead = 16
    for old in 0..<next.count {
      if old + ahead < ids.count {
        let later = Int(ids[old + ahead]) * stride
        if later < pages.count {
          pages.withUnsafeBufferPointer { prefetch($0.baseAddress! + later) }
        }
      }
      let client = ids[old]
      let base = base(of: Int(client))
      if client >= known {
        // New here, so its pages are those it has there.
        copy(next, old, to: base, pageMap: pageMap)
        continue
      }
      let nextHead = next.head(old)
      let nextTail = next.tail(old)
      let counts = pages[base + 2 * keep]
      let tails = Int(counts & 0xff)
      var heads = Int(counts >> 8)
      for index in 0..<tails { joined[index] = pages[base + index] }
      for (offset, page) in nextHead.enumerated() { joined[tails + offset] = pageMap[Int(page)] }
      let joinedCount = tails + nextHead.count
      var start = 0
      while start < tails && start + length <= joinedCount {
        spanning.append(contentsOf: joined[start..<start + length])
        spanning.append(client)
        start += 1
      }
      // Fewer than `keep` first pages means all pages so far, which `joined` starts with.
      while heads < keep && heads < joinedCount {
        pages[base + keep + heads] = joined[heads]
        heads += 1
      }
      for (offset, page) in nextTail.enumerated() { joined[tails + offset] = pageMap[Int(page)] }
      let newTails = min(keep, tails + nextTail.count)
      let drop = tails + nextTail.count - newTails
      for index in 0..<newTails { pages[base + index] = joined[drop + index] }
      pages[base + 2 * keep] = Int32(newTails | heads << 8)
    }
    return (ids, spanning)
  }

  /// Sets the pages at `base` to those of `client` in `other`, mapped by `pageMap`.
  private mutating func copy(_ other: Clients, _ client: Int, to base: Int, pageMap: [Int32]) {
    let source = client * stride
    let counts = other.pages[source + 2 * keep]
    let tails = Int(counts & 0xff)
    let heads = Int(counts >> 8)
    for index in 0..<tails { pages[base + index] = pageMap[Int(other.pages[source + index])] }
    for index in keep..<keep + heads {
      pages[base + index] = pageMap[Int(other.pages[source + index])]
    }
    pages[base + 2 * keep] = counts
  }
}
