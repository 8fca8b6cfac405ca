/// The size field of a line (`%b`, `sc-bytes`, `body_bytes_sent`) as a number.
package enum SizeField {
  /// The most bytes one line may say it sent (1 PB): more is taken as this.
  package static let max = 1 << 50

  /// The value of a size field: digits (at most `max`), or 0 for `-` or anything else.
  package static func value(_ bytes: UnsafeRawBufferPointer) -> Int {
    var value = 0
    for byte in bytes {
      guard LineParser.isDigit(byte) else { return 0 }
      value = min(value * 10 + Int(byte &- UInt8(ascii: "0")), max)
    }
    return value
  }
}
