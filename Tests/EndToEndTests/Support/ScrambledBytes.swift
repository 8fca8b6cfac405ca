/// Bytes that look random and are the same on every run, so that a test fed junk fails the
/// same way each time: byte `index` is the top byte of a multiplicative hash of it (every
/// value of a byte comes up).
enum ScrambledBytes {
  static func byte(_ index: UInt64) -> UInt8 {
    UInt8(truncatingIfNeeded: (index &* 0x9e37_79b9_7f4a_7c15) >> 56)
  }
}
