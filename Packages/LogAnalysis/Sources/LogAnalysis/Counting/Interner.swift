import CPrefetch
import Foundation

/// Gives each distinct byte string a small integer id, without building a String per lookup.
/// Open addressing over an arena of the bytes seen; a slot carries where its bytes are, so a
/// lookup touches the slot and the bytes and nothing else.
struct Interner: Sendable {
  private var arena: [UInt8] = []
  /// Where each id's bytes end in the arena; they start where the previous id's end.
  private var ends: [Int] = []
  /// The hash of each id's bytes.
  private(set) var hashes: [UInt64] = []
  /// Two words per slot: id + 1 in the high half and the hash's high half in the low (0 when
  /// empty), then the bytes' start in the arena shifted left 16, with their length (or
  /// `longLength` when they are longer) in the low 16 bits.
  private var slots: [UInt64] = Array(repeating: 0, count: 2 * 1024)
  private static let longLength = 0xffff

  init() {}

  var count: Int { ends.count }

  /// The bytes of `id`.
  func bytes(_ id: Int32) -> ArraySlice<UInt8> {
    arena[range(Int(id))]
  }

  private func range(_ id: Int) -> Range<Int> {
    (id == 0 ? 0 : ends[id - 1])..<ends[id]
  }

  /// The id of `bytes`, adding them when new. `hash` is `Hashing.hash(bytes)`, when known.
  mutating func intern(_ bytes: UnsafeRawBufferPointer, hash known: UInt64? = nil) -> Int32 {
    let hash = known ?? Hashing.hash(bytes)
    let fragment = hash >> 32
    let mask = slots.count / 2 - 1
    let (slot, found) = lookUp(bytes, hash: hash)
    if let found { return found }
    let id = ends.count
    let start = arena.count
    arena.append(contentsOf: bytes)
    ends.append(arena.count)
    hashes.append(hash)
    slots[2 * slot] = UInt64(id + 1) << 32 | fragment
    slots[2 * slot + 1] = Self.location(start: start, count: bytes.count)
    if ends.count * 10 > (mask + 1) * Tuning.internerMaxLoadTenths { grow(to: 2 * (mask + 1)) }
    return Int32(id)
  }

  /// The id of `bytes`, whose hash is `hash`, when they are here.
  func id(of bytes: UnsafeRawBufferPointer, hash: UInt64) -> Int32? {
    lookUp(bytes, hash: hash).found
  }

  /// The id of `bytes`, or the empty slot where they go.
  @inline(__always)
  private func lookUp(_ bytes: UnsafeRawBufferPointer, hash: UInt64) -> (slot: Int, found: Int32?) {
    let fragment = hash >> 32
    let mask = slots.count / 2 - 1
    return slots.withUnsafeBufferPointer { slots in
      var slot = homeSlot(hash)
      while true {
        let entry = slots[2 * slot]
        if entry == 0 { return (slot, nil) }
        if entry & 0xffff_ffff == fragment {
          let id = Int(entry >> 32) - 1
          if equal(id, location: slots[2 * slot + 1], bytes) { return (slot, Int32(id)) }
        }
        slot = (slot + 1) & mask
      }
    }
  }

  /// The slot where a lookup of `hash` begins: from the hash's high half, which the slot
  /// keeps.
  private func homeSlot(_ hash: UInt64) -> Int {
    Int(truncatingIfNeeded: hash >> 32) & (slots.count / 2 - 1)
  }

  /// Starts loading the slot where a lookup of `hash` begins.
  func prefetchSlot(hash: UInt64) {
    let slot = homeSlot(hash)
    slots.withUnsafeBufferPointer { prefetch($0.baseAddress! + 2 * slot) }
  }

  /// Starts loading the bytes of the string that a lookup of `hash` most likely ends at:
  /// the first one whose slot matches the hash, among the slots in the cache line where the
  /// lookup begins (which `prefetchSlot` loaded). Returns that string's id.
  @discardableResult
  func prefetchBytes(hash: UInt64) -> Int32? {
    let fragment = hash >> 32
    let mask = slots.count / 2 - 1
    return slots.withUnsafeBufferPointer { slots in
      var slot = homeSlot(hash)
      let line = Int(bitPattern: slots.baseAddress! + 2 * slot) >> 6
      repeat {
        let entry = slots[2 * slot]
        if entry == 0 { return nil }
        if entry & 0xffff_ffff == fragment {
          let start = Int(slots[2 * slot + 1] >> 16)
          arena.withUnsafeBufferPointer { prefetch($0.baseAddress! + start) }
          return Int32(entry >> 32) - 1
        }
        slot = (slot + 1) & mask
      } while Int(bitPattern: slots.baseAddress! + 2 * slot) >> 6 == line
      return nil
    }
  }

  /// The bytes of every string, in id order, and where each one's bytes end: what
  /// `init(arena:ends:)` reads back.
  var storage: (arena: [UInt8], ends: [Int]) { (arena, ends) }

  /// The ids in the order of their hashes (equal hashes in the order of the ids).
  func order() -> [Int32] {
    hashes.withUnsafeBufferPointer { Hashing.order($0) }
  }

  /// The ids in the order of their bytes (`lexicographicallyPrecedes`): by their first eight
  /// bytes read as one number (zeros past the end), and by `memcmp` only where those agree.
  /// Sorting the 200,000 pages of a large site as arrays of bytes took a thirtieth of its
  /// analysis, on one core.
  func idsInByteOrder() -> [Int32] {
    arena.withUnsafeBufferPointer { arena in
      var keyed = (0..<count).map { id in
        let bytes = range(id)
        var key: UInt64 = 0
        for offset in 0..<8 {
          let byte = offset < bytes.count ? arena[bytes.lowerBound + offset] : 0
          key = key << 8 | UInt64(byte)
        }
        return (key: key, id: id)
      }
      keyed.sort { a, b in
        if a.key != b.key { return a.key < b.key }
        let (left, right) = (range(a.id), range(b.id))
        let common = min(left.count, right.count)
        let order =
          common == 0
          ? 0
          : memcmp(
            arena.baseAddress! + left.lowerBound, arena.baseAddress! + right.lowerBound, common)
        return order != 0 ? order < 0 : left.count < right.count
      }
      return keyed.map { Int32($0.id) }
    }
  }

  /// The strings as `storage` gives them, in the order of the ids in `order`.
  func storage(in order: [Int32]) -> (arena: [UInt8], ends: [Int]) {
    var (arena, ends) = ([UInt8](), [Int]())
    arena.reserveCapacity(self.arena.count)
    ends.reserveCapacity(order.count)
    for id in order {
      arena.append(contentsOf: bytes(id))
      ends.append(arena.count)
    }
    return (arena, ends)
  }

  /// The strings laid one after another in `arena`, string `id` ending at `ends[id]`, with
  /// those ids; nil when the ends are out of order or past the bytes, or a string repeats.
  init?(arena: UnsafeRawBufferPointer, ends: UnsafeBufferPointer<Int>) {
    guard (ends.last ?? 0) == arena.count else { return nil }
    reserve(ends.count)
    self.arena.reserveCapacity(arena.count)
    self.ends.reserveCapacity(ends.count)
    hashes.reserveCapacity(ends.count)
    // The hashes first, so that each string's slot is fetched while those before it go in.
    var start = 0
    var known = [UInt64]()
    known.reserveCapacity(ends.count)
    for end in ends {
      guard start <= end, end <= arena.count else { return nil }
      known.append(Hashing.hash(UnsafeRawBufferPointer(rebasing: arena[start..<end])))
      start = end
    }
    let ahead = Tuning.prefetchDistance
    start = 0
    for (id, end) in ends.enumerated() {
      if id + ahead < known.count { prefetchSlot(hash: known[id + ahead]) }
      guard intern(UnsafeRawBufferPointer(rebasing: arena[start..<end]), hash: known[id]) == id
      else { return nil }
      start = end
    }
  }

  /// Adds the strings at `ranges` of `bytes`, the slot of each fetched a few strings ahead:
  /// for strings met one at a time among other work, gathered and added at once. Their ids.
  mutating func intern(_ ranges: [Range<Int>], of bytes: UnsafeRawBufferPointer) -> [Int32] {
    guard !ranges.isEmpty else { return [] }
    let hashes = ranges.map { Hashing.hash(UnsafeRawBufferPointer(rebasing: bytes[$0])) }
    reserve(count + ranges.count)
    let ahead = Tuning.prefetchDistance
    return ranges.enumerated().map { index, range in
      if index + ahead < hashes.count { prefetchSlot(hash: hashes[index + ahead]) }
      return intern(UnsafeRawBufferPointer(rebasing: bytes[range]), hash: hashes[index])
    }
  }

  /// The id in `other` of each string here, -1 where it has none (the slot of each fetched a
  /// few ahead); only for those `wanted` marks, when given.
  func ids(in other: Interner, wanted: [Bool]? = nil) -> [Int32] {
    let ahead = Tuning.prefetchDistance
    return arena.withUnsafeBytes { arena in
      (0..<count).map { id in
        guard wanted?[id] ?? true else { return -1 }
        if id + ahead < count { other.prefetchSlot(hash: hashes[id + ahead]) }
        return other.id(of: UnsafeRawBufferPointer(rebasing: arena[range(id)]), hash: hashes[id])
          ?? -1
      }
    }
  }

  /// The ids here of every string of `other`, by their ids there, adding the new ones.
  mutating func intern(contentsOf other: Interner) -> [Int32] {
    reserve(count + other.count)
    let ahead = Tuning.prefetchDistance
    return other.arena.withUnsafeBytes { arena in
      (0..<other.count).map { id in
        if id + ahead < other.count { prefetchSlot(hash: other.hashes[id + ahead]) }
        let range = other.range(id)
        return intern(UnsafeRawBufferPointer(rebasing: arena[range]), hash: other.hashes[id])
      }
    }
  }

  mutating func intern(_ bytes: some Collection<UInt8>, hash: UInt64? = nil) -> Int32 {
    Array(bytes).withUnsafeBytes { intern($0, hash: hash) }
  }

  private static func location(start: Int, count: Int) -> UInt64 {
    UInt64(start) << 16 | UInt64(min(count, longLength))
  }

  private func equal(_ id: Int, location: UInt64, _ bytes: UnsafeRawBufferPointer) -> Bool {
    let start = Int(location >> 16)
    var count = Int(location & 0xffff)
    if count == Self.longLength { count = range(id).count }
    guard count == bytes.count else { return false }
    return count == 0
      || arena.withUnsafeBytes { Self.equal($0.baseAddress! + start, bytes.baseAddress!, count) }
  }

  /// Whether `count` bytes at `a` and `b` are equal, eight at a time; the last word overlaps
  /// the one before it.
  @inline(__always)
  static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
    func word(_ pointer: UnsafeRawPointer, _ offset: Int) -> UInt64 {
      pointer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }
    func half(_ pointer: UnsafeRawPointer, _ offset: Int) -> UInt32 {
      pointer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
    }
    if count >= 8 {
      var offset = 0
      while offset + 8 < count {
        if word(a, offset) != word(b, offset) { return false }
        offset += 8
      }
      return word(a, count - 8) == word(b, count - 8)
    }
    if count >= 4 { return half(a, 0) == half(b, 0) && half(a, count - 4) == half(b, count - 4) }
    for offset in 0..<count
    where a.load(fromByteOffset: offset, as: UInt8.self)
      != b.load(fromByteOffset: offset, as: UInt8.self)
    {
      return false
    }
    return true
  }

  /// Makes room for `total` strings without growing again.
  private mutating func reserve(_ total: Int) {
    var capacity = slots.count / 2
    while total * 10 > capacity * Tuning.internerMaxLoadTenths { capacity *= 2 }
    if capacity > slots.count / 2 { grow(to: capacity) }
  }

  /// Rebuilds the slots with room for `capacity` of them. The slot of a string follows from
  /// the hash half its slot holds, so the old slots are read in order and the new ones
  /// written nearly in order.
  private mutating func grow(to capacity: Int) {
    let old = slots
    slots = Array(repeating: 0, count: 2 * capacity)
    let mask = capacity - 1
    for index in Swift.stride(from: 0, to: old.count, by: 2) where old[index] != 0 {
      var slot = Int(truncatingIfNeeded: old[index] & 0xffff_ffff) & mask
      while slots[2 * slot] != 0 { slot = (slot + 1) & mask }
      slots[2 * slot] = old[index]
      slots[2 * slot + 1] = old[index + 1]
    }
  }
}
