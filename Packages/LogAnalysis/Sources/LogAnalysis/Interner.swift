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
  /// Two words per slot: id + 1 in the high half and the hash's low half in the low (0 when
  /// empty), then the bytes' start in the arena shifted left 16, with their length (or
  /// `longLength` when they are longer) in the low 16 bits.
  private var slots: [UInt64] = Array(repeating: 0, count: 2 * 1024)
  private static let longLength = 0xffff

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
    let fragment = hash & 0xffff_ffff
    let mask = slots.count / 2 - 1
    var slot = Int(truncatingIfNeeded: hash >> 32) & mask
    while true {
      let entry = slots[2 * slot]
      if entry == 0 { break }
      if entry & 0xffff_ffff == fragment {
        let id = Int(entry >> 32) - 1
        if equal(id, location: slots[2 * slot + 1], bytes) { return Int32(id) }
      }
      slot = (slot + 1) & mask
    }
    let id = ends.count
    let start = arena.count
    arena.append(contentsOf: bytes)
    ends.append(arena.count)
    hashes.append(hash)
    slots[2 * slot] = UInt64(id + 1) << 32 | fragment
    slots[2 * slot + 1] = Self.location(start: start, count: bytes.count)
    if ends.count * 2 > mask + 1 { grow() }
    return Int32(id)
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
      || arena.withUnsafeBytes { memcmp($0.baseAddress! + start, bytes.baseAddress!, count) == 0 }
  }

  private mutating func grow() {
    let capacity = slots.count
    slots = Array(repeating: 0, count: 2 * capacity)
    let mask = capacity - 1
    for id in ends.indices {
      let hash = hashes[id]
      var slot = Int(truncatingIfNeeded: hash >> 32) & mask
      while slots[2 * slot] != 0 { slot = (slot + 1) & mask }
      let range = range(id)
      slots[2 * slot] = UInt64(id + 1) << 32 | (hash & 0xffff_ffff)
      slots[2 * slot + 1] = Self.location(start: range.lowerBound, count: range.count)
    }
  }
}
