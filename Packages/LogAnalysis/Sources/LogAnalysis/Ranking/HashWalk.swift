/// The sequences of several parts of a log (`IndexedPartial`s, each's in the order of their
/// hashes), walked side by side a shard at a time, each by its ids here: pages as
/// `pageMaps` and clients as a `ClientMatch` maps them.
struct HashWalk {
  let parts: [IndexedPartial]
  /// The maps of all parts one after another, each part's from its start.
  private let pageMaps: [Int32]
  private let clientMaps: [Int32]
  private let pageStarts: [Int]
  private let clientStarts: [Int]
  var length: Int { parts[0].options.length }

  init(parts: [IndexedPartial], pageMaps: [[Int32]], clients: ClientMatch) {
    self.parts = parts
    (self.pageMaps, clientMaps) = (pageMaps.flatMap { $0 }, clients.ids)
    pageStarts = pageMaps.reduce(into: [0]) { $0.append($0.last! + $1.count) }
    clientStarts = clients.starts
  }

  /// Calls `body` with each distinct sequence of `shard` (its `length` pages), its count in
  /// the parts, and its count in `extra` (sequences of the shard in the order of their
  /// hashes, by the ids here); but first, for the sequences of each hash, asks `wanted` with
  /// how many entries of the parts and extra have it and their counts there, and passes them
  /// by when it says no.
  func forEachSequence(
    in shard: Int, extra: ShardSequences,
    wanted: (_ entries: Int, _ parts: Int, _ extra: Int) -> Bool,
    _ body: (UnsafePointer<Int32>, _ parts: Int, _ extra: Int) -> Void
  ) {
    walk(in: shard, pairs: false, extra: extra, wanted: wanted, body)
  }

  /// How many distinct sequences `shard` holds in the parts and `extra` (as `forEachSequence`
  /// walks them), and the best `limit` of them.
  func best(in shard: Int, extra: ShardSequences, limit: Int, order: RankOrder) -> (
    sequences: Int, best: [Candidate]
  ) {
    let length = self.length
    var best = Leaderboard(limit: limit, order: order)
    var (sequences, compared) = (0, false)
    forEachSequence(in: shard, extra: extra) { entries, parts, extra in
      // One entry is one sequence; more are compared. None of a hash's sequences is counted
      // more often than all of them together.
      compared = entries > 1
      if !compared && parts + extra > 0 { sequences += 1 }
      return compared || best.mayKeep(parts + extra)
    } _: { ids, parts, extra in
      let count = parts + extra
      guard count > 0 else { return }
      if compared { sequences += 1 }
      if best.mayKeep(count) {
        best.offer(UnsafeBufferPointer(start: ids, count: length), count: count)
      }
    }
    return (sequences, best.candidates)
  }

  /// With `uniqueClients`: what `shard`'s counts (of clients per sequence) in the parts lack,
  /// as sequences in the order of their hashes: 1 for each pair of a sequence and a client
  /// that `spanning` (`length` pages and a client each) adds and no part holds, and 1 less
  /// for each part past the first that holds a pair again.
  func newClients(
    in shard: Int, spanning: [Int32], pages: Interner, clientHashes: [UInt64]
  ) -> ShardSequences {
    let length = self.length
    var pairs = ShardSequences()
    pairs.ids = spanning
    pairs.counts = Array(repeating: 1, count: spanning.count / (length + 1))
    pairs = ShardSequences.combined(pairs, width: length + 1, pages: pages, length: length) {
      Hashing.pair(sequence: $0, client: clientHashes[Int($1)])
    }
    var corrections = ShardSequences()
    walk(in: shard, pairs: true, extra: pairs) { entries, parts, _ in
      // A pair of one part is counted there already.
      entries > 1 || parts == 0
    } _: { ids, parts, _ in
      guard parts != 1 else { return }
      corrections.ids.append(contentsOf: UnsafeBufferPointer(start: ids, count: length))
      corrections.counts.append(1 - parts)
    }
    return ShardSequences.combined(corrections, width: length, pages: pages, length: length)
  }

  /// The sequences of `spanning` (`length` pages and a client each), counted, in the order of
  /// their hashes.
  func spanningSequences(_ spanning: [Int32], pages: Interner) -> ShardSequences {
    let length = self.length
    var added = ShardSequences()
    for start in stride(from: 0, to: spanning.count, by: length + 1) {
      added.ids += spanning[start..<start + length]
      added.counts.append(1)
    }
    return ShardSequences.combined(added, width: length, pages: pages, length: length)
  }

  /// Calls `body` with each distinct entry of `shard` of the sequences (or with `pairs`, of
  /// the sequences and clients, each counted 1), by the ids here, with its count in the parts
  /// and in `extra`, whose entries are of the same kind; the entries of a hash only when
  /// `wanted` (as `forEachSequence` asks it) says so.
  private func walk(
    in shard: Int, pairs: Bool, extra: ShardSequences,
    wanted: (_ entries: Int, _ parts: Int, _ extra: Int) -> Bool,
    _ body: (UnsafePointer<Int32>, _ parts: Int, _ extra: Int) -> Void
  ) {
    let length = self.length
    let width = pairs ? length + 1 : length
    var group = HashGroup(width: width)
    let entry = UnsafeMutablePointer<Int32>.allocate(capacity: width)
    defer {
      group.deallocate()
      entry.deallocate()
    }
    pageMaps.withUnsafeBufferPointer { pageMaps in
      clientMaps.withUnsafeBufferPointer { clientMaps in
        var cursorList = parts.indices.map { part in
          Cursor(
            of: parts[part], pairs: pairs, shard: shard,
            pageMap: pageMaps.baseAddress.map { $0 + pageStarts[part] },
            clientMap: clientMaps.baseAddress.map { $0 + clientStarts[part] })
        }
        cursorList.withUnsafeMutableBufferPointer { cursors in
          var extraNext = 0
          let extraCount = extra.counts.count
          while true {
            var hash: UInt64 = 0
            var found = false
            for cursor in cursors where cursor.next < cursor.end {
              let candidate = cursor.hashes[cursor.next]
              if !found || candidate < hash { (hash, found) = (candidate, true) }
            }
            if extraNext < extraCount && (!found || extra.hashes[extraNext] < hash) {
              (hash, found) = (extra.hashes[extraNext], true)
            }
            guard found else { return }
            // The entries of this hash: how many, and their counts, before any is read.
            var (entries, partTotal, extraTotal) = (0, 0, 0)
            for number in cursors.indices {
              let cursor = cursors[number]
              var end = cursor.next
              while end < cursor.end && cursor.hashes[end] == hash {
                partTotal += pairs ? 1 : Int(cursor.counts[end])
                end += 1
              }
              entries += end - cursor.next
              cursors[number].runEnd = end
            }
            var extraEnd = extraNext
            while extraEnd < extraCount && extra.hashes[extraEnd] == hash {
              extraTotal += extra.counts[extraEnd]
              extraEnd += 1
            }
            entries += extraEnd - extraNext
            defer {
              for number in cursors.indices { cursors[number].next = cursors[number].runEnd }
              extraNext = extraEnd
            }
            guard wanted(entries, partTotal, extraTotal) else { continue }
            group.clear()
            for cursor in cursors {
              for next in cursor.next..<cursor.runEnd {
                let row = next * width
                for offset in 0..<length {
                  entry[offset] = cursor.pageMap![Int(cursor.ids[row + offset])]
                }
                if pairs { entry[length] = cursor.clientMap![Int(cursor.ids[row + length])] }
                group.add(entry, parts: pairs ? 1 : Int(cursor.counts[next]), extra: 0)
              }
            }
            extra.ids.withUnsafeBufferPointer { ids in
              for next in extraNext..<extraEnd {
                group.add(ids.baseAddress! + next * width, parts: 0, extra: extra.counts[next])
              }
            }
            for key in 0..<group.count {
              body(group.keys + key * width, group.partCounts[key], group.extraCounts[key])
            }
          }
        }
      }
    }
  }
}

/// Where a walk is in one part's entries of a shard, and how its ids map to those here (nil
/// for maps of no ids: a part with entries has pages, and with pairs, clients).
private struct Cursor {
  let hashes: WordView<UInt64>
  let ids: WordView<Int32>
  let counts: WordView<Int64>
  let pageMap: UnsafePointer<Int32>?
  let clientMap: UnsafePointer<Int32>?
  var next: Int
  let end: Int
  /// Where the entries of the hash at `next` end.
  var runEnd = 0

  init(
    of partial: IndexedPartial, pairs: Bool, shard: Int, pageMap: UnsafePointer<Int32>?,
    clientMap: UnsafePointer<Int32>?
  ) {
    hashes = pairs ? partial.pairHashes : partial.windowHashes
    ids = pairs ? partial.pairIds : partial.windowIds
    counts = partial.windowCounts
    (self.pageMap, self.clientMap) = (pageMap, clientMap)
    let range = hashes.range(ofShard: shard)
    (next, end) = (range.lowerBound, range.upperBound)
  }
}

/// The distinct entries of one hash (`width` ids each) met in a walk, with their counts in
/// the parts and in the extra entries; nearly always one.
private struct HashGroup {
  let width: Int
  private(set) var keys: UnsafeMutablePointer<Int32>
  private(set) var partCounts: UnsafeMutablePointer<Int>
  private(set) var extraCounts: UnsafeMutablePointer<Int>
  private(set) var count = 0
  private var capacity = 8

  init(width: Int) {
    self.width = width
    keys = .allocate(capacity: capacity * width)
    partCounts = .allocate(capacity: capacity)
    extraCounts = .allocate(capacity: capacity)
  }

  func deallocate() {
    keys.deallocate()
    partCounts.deallocate()
    extraCounts.deallocate()
  }

  mutating func clear() { count = 0 }

  /// Adds the counts of the entry at `ids`, new or met before.
  mutating func add(_ ids: UnsafePointer<Int32>, parts: Int, extra: Int) {
    var key = 0
    while key < count && !(0..<width).allSatisfy({ keys[key * width + $0] == ids[$0] }) {
      key += 1
    }
    if key == count {
      if count == capacity { grow() }
      (keys + key * width).update(from: ids, count: width)
      (partCounts[key], extraCounts[key]) = (0, 0)
      count += 1
    }
    partCounts[key] += parts
    extraCounts[key] += extra
  }

  private mutating func grow() {
    let (oldKeys, oldParts, oldExtra) = (keys, partCounts, extraCounts)
    capacity *= 2
    keys = .allocate(capacity: capacity * width)
    partCounts = .allocate(capacity: capacity)
    extraCounts = .allocate(capacity: capacity)
    keys.update(from: oldKeys, count: count * width)
    partCounts.update(from: oldParts, count: count)
    extraCounts.update(from: oldExtra, count: count)
    oldKeys.deallocate()
    oldParts.deallocate()
    oldExtra.deallocate()
  }
}
