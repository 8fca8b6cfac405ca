import Foundation

/// Gives each distinct byte string a small integer id, without building a String per lookup.
/// Open addressing over an arena of the bytes seen.
struct Interner: Sendable {
  private var arena: [UInt8] = []
  /// Where each id's bytes are in the arena.
  private var spans: [(start: Int, count: Int)] = []
  private var hashes: [UInt64] = []
  /// Slots hold id + 1 in the high half and the hash's low half in the low; 0 is empty.
  private var slots: [UInt64] = Array(repeating: 0, count: 1024)

  var count: Int { spans.count }

  /// The bytes of `id`.
  func bytes(_ id: Int32) -> ArraySlice<UInt8> {
    let span = spans[Int(id)]
    return arena[span.start..<span.start + span.count]
  }

  /// The id of `bytes`, adding them when new.
  mutating func intern(_ bytes: UnsafeRawBufferPointer) -> Int32 {
    let hash = Hashing.hash(bytes)
    let fragment = hash & 0xffff_ffff
    var slot = Int(truncatingIfNeeded: hash >> 32) & (slots.count - 1)
    while true {
      let entry = slots[slot]
      if entry == 0 { break }
      if entry & 0xffff_ffff == fragment {
        let id = Int(entry >> 32) - 1
        if equal(id, bytes) { return Int32(id) }
      }
      slot = (slot + 1) & (slots.count - 1)
    }
    let id = Int32(spans.count)
    spans.append((arena.count, bytes.count))
    hashes.append(hash)
    arena.append(contentsOf: bytes)
    slots[slot] = UInt64(id + 1) << 32 | fragment
    if spans.count * 2 > slots.count { grow() }
    return id
  }

  mutating func intern(_ bytes: some Collection<UInt8>) -> Int32 {
    Array(bytes).withUnsafeBytes { intern($0) }
  }

  private func equal(_ id: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
    let span = spans[id]
    guard span.count == bytes.count else { return false }
    return arena.withUnsafeBytes { arena in
      span.count == 0
        || memcmp(arena.baseAddress! + span.start, bytes.baseAddress!, span.count) == 0
    }
  }

  private mutating func grow() {
    slots = Array(repeating: 0, count: slots.count * 2)
    for id in spans.indices {
      let hash = hashes[id]
      var slot = Int(truncatingIfNeeded: hash >> 32) & (slots.count - 1)
      while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
      slots[slot] = UInt64(id + 1) << 32 | (hash & 0xffff_ffff)
    }
  }
}
