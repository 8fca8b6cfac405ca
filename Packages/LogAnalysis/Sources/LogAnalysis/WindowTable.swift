import Foundation

/// Counts sequences of page ids of one length, in flat arrays: open addressing over the ids
/// themselves, with no allocation per sequence.
struct WindowTable: Sendable {
  let length: Int
  /// `length` ids per entry.
  private(set) var keys: [Int32] = []
  private(set) var counts: [Int] = []
  /// Slots hold entry + 1 in the high half and the hash's low half in the low; 0 is empty.
  private var slots: [UInt64] = Array(repeating: 0, count: 1024)

  init(length: Int) {
    self.length = length
  }

  var count: Int { counts.count }

  /// The ids of entry `index`.
  func key(_ index: Int) -> ArraySlice<Int32> {
    keys[index * length..<(index + 1) * length]
  }

  /// Adds `amount` to the sequence in `ids` (exactly `length` of them); returns its entry.
  @discardableResult
  mutating func add(_ ids: UnsafeBufferPointer<Int32>, amount: Int = 1) -> Int {
    let hash = Self.hash(ids)
    let fragment = hash & 0xffff_ffff
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash >> 32) & mask
    while true {
      let stored = slots[slot]
      if stored == 0 { break }
      if stored & 0xffff_ffff == fragment {
        let entry = Int(stored >> 32) - 1
        if matches(entry, ids) {
          counts[entry] += amount
          return entry
        }
      }
      slot = (slot + 1) & mask
    }
    let entry = counts.count
    keys.append(contentsOf: ids)
    counts.append(amount)
    slots[slot] = UInt64(entry + 1) << 32 | fragment
    if counts.count * 2 > slots.count { grow() }
    return entry
  }

  mutating func setCount(_ count: Int, of entry: Int) {
    counts[entry] = count
  }

  private func matches(_ entry: Int, _ ids: UnsafeBufferPointer<Int32>) -> Bool {
    let base = entry * length
    for index in 0..<length where keys[base + index] != ids[index] { return false }
    return true
  }

  private mutating func grow() {
    slots = Array(repeating: 0, count: slots.count * 2)
    let mask = slots.count - 1
    for entry in counts.indices {
      let hash = keys.withUnsafeBufferPointer {
        Self.hash(UnsafeBufferPointer(rebasing: $0[entry * length..<(entry + 1) * length]))
      }
      var slot = Int(truncatingIfNeeded: hash >> 32) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = UInt64(entry + 1) << 32 | (hash & 0xffff_ffff)
    }
  }

  @inline(__always)
  private static func hash(_ ids: UnsafeBufferPointer<Int32>) -> UInt64 {
    var hash: UInt64 = 0x9e37_79b9_7f4a_7c15
    for id in ids { hash = (hash ^ UInt64(UInt32(bitPattern: id))) &* 0x9e37_79b9_7f4a_7c15 }
    return Hashing.mix(hash)
  }
}
