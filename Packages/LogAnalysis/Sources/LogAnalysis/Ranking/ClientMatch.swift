/// The clients of several parts of a log matched by their names, by walking each part's
/// clients (an `IndexedPartial`'s, in the order of their names' hashes) side by side, a
/// shard of the hashes on each core.
struct ClientMatch {
  /// Each client's id here, the parts' clients one after another (those of part `p` from
  /// `starts[p]`): the first part's as they are there, then each next part's new ones
  /// numbered after all those before, in order (as `Partial.append` numbers them).
  let ids: [Int32]
  let starts: [Int]
  /// Per client id here, where its name is: its first part and its index there (`packed`).
  let owners: [UInt64]
  /// The clients of more than one part, each as its places in the order of the parts: those
  /// of the `g`th are `places[shared[g]..<shared[g + 1]]`.
  let places: [UInt64]
  let shared: [Int]

  /// A client's place: its part and its index there, in one word.
  static func packed(_ part: Int, _ index: Int) -> UInt64 { UInt64(part) << 32 | UInt64(index) }
  static func unpacked(_ place: UInt64) -> (part: Int, index: Int) {
    (Int(place >> 32), Int(place & 0xffff_ffff))
  }

  /// The id here of the client at `index` of part `part`.
  func id(_ part: Int, _ index: Int) -> Int32 { ids[starts[part] + index] }

  /// The ids here of the clients of part `part`, by their index there.
  func map(of part: Int) -> [Int32] { Array(ids[starts[part]..<starts[part + 1]]) }

  /// Throws when a name is out of range, or repeats within a part.
  init(_ parts: [IndexedPartial]) throws(PartialFileError) {
    let starts = parts.reduce(into: [0]) { $0.append($0.last! + $1.clientCount) }
    self.starts = starts
    // Per client of each part (the parts one after another), its first place; per shard,
    // the clients of more than one part, and how many of each part's are new.
    // (Every slot is written: the shards' clients tile each part's, its hashes in order.)
    var shards: [Result<ShardMatch, PartialFileError>] = []
    let firsts = [UInt64](unsafeUninitializedCapacity: starts.last!) { firsts, count in
      // Safe: each shard writes the places of its own clients only.
      nonisolated(unsafe) let firsts = firsts
      shards = concurrentMap(WindowTable.shardCount) { shard in
        Result { () throws(PartialFileError) in
          try ShardMatch(shard: shard, of: parts) { part, index, first in
            firsts[starts[part] + index] = first
          }
        }
      }
      count = firsts.count
    }
    var matched: [ShardMatch] = []
    var (places, shared) = ([UInt64](), [0])
    for shard in shards {
      let shard = try shard.get()
      shared += shard.shared.dropFirst().map { $0 + places.count }
      places += shard.places
      matched.append(shard)
    }
    // Where each shard's new clients of each part are numbered from: after all new clients
    // of the parts before, and those of the same part in the shards before.
    var next = [Int](repeating: 0, count: parts.count)
    var bases: [[Int]] = []
    for shard in matched {
      bases.append(next)
      for part in parts.indices { next[part] += shard.new[part] }
    }
    var before = 0
    for part in parts.indices {
      for shard in bases.indices { bases[shard][part] += before }
      before += next[part]
    }
    // The ids and the owners, a shard on each core: a client's first place comes before its
    // others, in an earlier part of the same shard.
    var owners: [UInt64] = []
    let ids = [Int32](unsafeUninitializedCapacity: firsts.count) { ids, idCount in
      owners = [UInt64](unsafeUninitializedCapacity: before) { owners, ownerCount in
        // Safe: each shard writes the ids and the owners of its own clients only.
        nonisolated(unsafe) let (ids, owners) = (ids, owners)
        _ = concurrentMap(WindowTable.shardCount) { shard in
          var next = bases[shard]
          for (part, range) in matched[shard].ranges.enumerated() {
            for index in range {
              let at = starts[part] + index
              let place = firsts[at]
              let first = Self.unpacked(place)
              if first == (part, index) {
                ids[at] = Int32(next[part])
                owners[next[part]] = place
                next[part] += 1
              } else {
                ids[at] = ids[starts[first.part] + first.index]
              }
            }
          }
        }
        ownerCount = before
      }
      idCount = ids.count
    }
    (self.ids, self.owners, self.places, self.shared) = (ids, owners, places, shared)
  }
}

/// The clients of the parts whose hashes lie in one shard (as `WindowTable` shards hashes),
/// matched.
private struct ShardMatch {
  /// Per part, where its clients of the shard are.
  let ranges: [Range<Int>]
  /// Per part, how many of its clients of the shard are in no part before.
  private(set) var new: [Int]
  /// The clients of more than one part, as `ClientMatch` has them (from 0 here).
  private(set) var places: [UInt64] = []
  private(set) var shared = [0]

  /// Matches the clients of `shard`: gives each one's first place to `first` (its part, its
  /// index there, the place), and keeps those of more than one part.
  init(
    shard: Int, of parts: [IndexedPartial], first: (Int, Int, UInt64) -> Void
  ) throws(PartialFileError) {
    // What the walk reads of the parts, without copying them.
    let hashes = parts.map(\.clientHashes)
    let names = parts.map(\.clientNameTable)
    ranges = hashes.map { $0.range(ofShard: shard) }
    new = Array(repeating: 0, count: parts.count)
    var next = ranges.map(\.lowerBound)
    let ends = ranges.map(\.upperBound)
    var group: [UInt64] = []
    while true {
      // The least hash of the parts' next clients, its first part, and how many others have
      // it there.
      var (least, hash, ties) = (-1, UInt64(0), 0)
      for part in parts.indices where next[part] < ends[part] {
        let candidate = hashes[part][next[part]]
        if least < 0 || candidate < hash {
          (least, hash, ties) = (part, candidate, 0)
        } else if candidate == hash {
          ties += 1
        }
      }
      guard least >= 0 else { return }
      let index = next[least]
      if ties == 0 && (index + 1 == ends[least] || hashes[least][index + 1] != hash) {
        // Nearly always: a client of one part, new there.
        first(least, index, ClientMatch.packed(least, index))
        new[least] += 1
        next[least] += 1
        continue
      }
      group.removeAll(keepingCapacity: true)
      for part in parts.indices {
        while next[part] < ends[part] && hashes[part][next[part]] == hash {
          group.append(ClientMatch.packed(part, next[part]))
          next[part] += 1
        }
      }
      let (one, other) = (ClientMatch.unpacked(group[0]), ClientMatch.unpacked(group[1]))
      if group.count == 2, one.part != other.part,
        try names[one.part].name(one.index).elementsEqual(names[other.part].name(other.index))
      {
        // Nearly always: one client, in two parts.
        first(one.part, one.index, group[0])
        first(other.part, other.index, group[0])
        new[one.part] += 1
        places += group
        shared.append(places.count)
        continue
      }
      try match(group, names: names, first: first)
    }
  }

  /// Sorts the clients at `group` (of one hash, in the order of the parts) by name: gives
  /// each one's first place to `first`, and keeps those of more than one part.
  private mutating func match(
    _ group: [UInt64], names table: [IndexedPartial.NameTable], first: (Int, Int, UInt64) -> Void
  ) throws(PartialFileError) {
    var names: [UnsafeRawBufferPointer] = []
    for place in group {
      let (part, index) = ClientMatch.unpacked(place)
      names.append(try table[part].name(index))
    }
    var taken = [Bool](repeating: false, count: group.count)
    for earliest in group.indices where !taken[earliest] {
      let start = places.count
      for other in earliest..<group.count
      where !taken[other] && names[other].elementsEqual(names[earliest]) {
        let (part, index) = ClientMatch.unpacked(group[other])
        if places.count > start && ClientMatch.unpacked(places.last!).part == part {
          throw PartialFileError(description: "a client's name repeats")
        }
        taken[other] = true
        first(part, index, group[earliest])
        places.append(group[other])
      }
      new[ClientMatch.unpacked(group[earliest]).part] += 1
      if places.count - start > 1 {
        shared.append(places.count)
      } else {
        places.removeLast()
      }
    }
  }
}
