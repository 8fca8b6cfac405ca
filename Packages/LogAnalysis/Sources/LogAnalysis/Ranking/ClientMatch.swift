/// The clients of several parts of a log matched by their names, by walking each part's
/// clients (an `IndexedPartial`'s, in the order of their names' hashes) side by side.
struct ClientMatch {
  /// Per part, each of its clients' ids here: the first part's as they are there, then each
  /// next part's new ones numbered after all those before, in order (as `Partial.append`
  /// numbers them).
  var maps: [[Int32]] = []
  /// Per client id here, where its name is: its first part and its index there (`packed`).
  var owners: [UInt64] = []
  /// The clients of more than one part, each as its places in the order of the parts: those
  /// of the `g`th are `places[shared[g]..<shared[g + 1]]`.
  var places: [UInt64] = []
  var shared = [0]

  /// A client's place: its part and its index there, in one word.
  static func packed(_ part: Int, _ index: Int) -> UInt64 { UInt64(part) << 32 | UInt64(index) }
  static func unpacked(_ place: UInt64) -> (part: Int, index: Int) {
    (Int(place >> 32), Int(place & 0xffff_ffff))
  }

  /// Throws when a name is out of range, or repeats within a part.
  init(_ parts: [IndexedPartial]) throws(PartialFileError) {
    let starts = parts.reduce(into: [0]) { $0.append($0.last! + $1.clientCount) }
    // Per client of each part (the parts one after another), its first place: a shard of the
    // hashes on each core.
    var firsts = [UInt64](repeating: 0, count: starts.last!)
    let shards = firsts.withUnsafeMutableBufferPointer { firsts in
      // Safe: each shard writes the places of its own clients only.
      nonisolated(unsafe) let firsts = firsts
      return concurrentMap(WindowTable.shardCount) { shard in
        Result { () throws(PartialFileError) in
          var matched = ClientMatch()
          try matched.match(shard: shard, of: parts) { part, index, first in
            firsts[starts[part] + index] = first
          }
          return matched
        }
      }
    }
    for shard in shards {
      let matched = try shard.get()
      let offset = places.count
      places += matched.places
      shared += matched.shared.dropFirst().map { $0 + offset }
    }
    // The ids, in order: a client's first place comes before its others.
    var ids = [Int32](repeating: 0, count: firsts.count)
    for (at, place) in firsts.enumerated() {
      let (part, index) = Self.unpacked(place)
      let first = starts[part] + index
      if first == at {
        ids[at] = Int32(owners.count)
        owners.append(place)
      } else {
        ids[at] = ids[first]
      }
    }
    maps = parts.indices.map { Array(ids[starts[$0]..<starts[$0 + 1]]) }
  }

  private init() {}

  /// Matches the clients of the parts whose hashes lie in `shard` (as `WindowTable` shards
  /// hashes): gives each one's first place to `first` (its part, its index there, the
  /// place), and keeps those of more than one part.
  private mutating func match(
    shard: Int, of parts: [IndexedPartial], first: (Int, Int, UInt64) -> Void
  ) throws(PartialFileError) {
    let hashes = parts.map(\.clientHashes)
    var next = hashes.map { $0.range(ofShard: shard).lowerBound }
    let ends = hashes.map { $0.range(ofShard: shard).upperBound }
    var group: [UInt64] = []
    while true {
      var hash: UInt64 = 0
      var found = false
      for part in parts.indices where next[part] < ends[part] {
        let candidate = hashes[part][next[part]]
        if !found || candidate < hash { (hash, found) = (candidate, true) }
      }
      guard found else { return }
      group.removeAll(keepingCapacity: true)
      for part in parts.indices {
        while next[part] < ends[part] && hashes[part][next[part]] == hash {
          group.append(Self.packed(part, next[part]))
          next[part] += 1
        }
      }
      if group.count == 1 {
        let (part, index) = Self.unpacked(group[0])
        first(part, index, group[0])
        continue
      }
      let (one, other) = (Self.unpacked(group[0]), Self.unpacked(group[1]))
      if group.count == 2, one.part != other.part,
        try parts[one.part].clientName(one.index).elementsEqual(
          parts[other.part].clientName(other.index))
      {
        // Nearly always: one client, in two parts.
        first(one.part, one.index, group[0])
        first(other.part, other.index, group[0])
        places += group
        shared.append(places.count)
        continue
      }
      try match(group, of: parts, first: first)
    }
  }

  /// Sorts the clients at `group` (of one hash, in the order of the parts) by name: gives
  /// each one's first place to `first`, and keeps those of more than one part.
  private mutating func match(
    _ group: [UInt64], of parts: [IndexedPartial], first: (Int, Int, UInt64) -> Void
  ) throws(PartialFileError) {
    var names: [UnsafeRawBufferPointer] = []
    for place in group {
      let (part, index) = Self.unpacked(place)
      names.append(try parts[part].clientName(index))
    }
    var taken = [Bool](repeating: false, count: group.count)
    for earliest in group.indices where !taken[earliest] {
      let start = places.count
      for other in earliest..<group.count
      where !taken[other] && names[other].elementsEqual(names[earliest]) {
        let (part, index) = Self.unpacked(group[other])
        if places.count > start && Self.unpacked(places.last!).part == part {
          throw PartialFileError(description: "a client's name repeats")
        }
        taken[other] = true
        first(part, index, group[earliest])
        places.append(group[other])
      }
      if places.count - start > 1 {
        shared.append(places.count)
      } else {
        places.removeLast()
      }
    }
  }
}
