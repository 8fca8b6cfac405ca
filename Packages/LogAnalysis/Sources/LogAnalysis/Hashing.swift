/// Fast, well-mixed 64-bit hashes for the tables of the analysis.
enum Hashing {
  /// The finaliser of MurmurHash3: every input bit reaches every output bit.
  @inline(__always)
  static func mix(_ value: UInt64) -> UInt64 {
    var hash = value
    hash ^= hash >> 33
    hash = hash &* 0xff51_afd7_ed55_8ccd
    hash ^= hash >> 33
    hash = hash &* 0xc4ce_b9fe_1a85_ec53
    hash ^= hash >> 33
    return hash
  }

  /// A hash of `bytes`, eight at a time.
  @inline(__always)
  static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash = UInt64(bytes.count) &* 0x9e37_79b9_7f4a_7c15
    var offset = 0
    let count = bytes.count
    while offset + 8 <= count {
      let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      hash = (hash ^ word) &* 0x9e37_79b9_7f4a_7c15
      hash ^= hash >> 31
      offset += 8
    }
    var last: UInt64 = 0
    var shift: UInt64 = 0
    while offset < count {
      last |= UInt64(bytes[offset]) << shift
      shift += 8
      offset += 1
    }
    return mix(hash ^ last)
  }
}
