import Foundation

extension StringProtocol {
  /// The text without the white space at either end: what `trimmingCharacters(in:
  /// .whitespaces)` gives, without its cost (it goes through `NSString` every time, a
  /// twentieth of the time of a list of small files) when both ends are plain ASCII, as in
  /// nearly every header value, list line and file name.
  @inlinable public var trimmingWhitespace: String {
    guard let first = first?.asciiValue, let last = last?.asciiValue,
      Self.isPlainASCII(first), Self.isPlainASCII(last)
    else {
      return trimmingCharacters(in: .whitespaces)
    }
    return String(self)
  }

  /// Whether the text is `other` whatever the case of their letters: ASCII compared byte by
  /// byte, anything else as `lowercased()` compares it. Inlinable, so that another module
  /// compiles it for its own text types: called generically, through the protocol, it was
  /// a twenty-fifth of the time of a list of small files.
  @inlinable public func equalsIgnoringCase(_ other: some StringProtocol) -> Bool {
    let (mine, theirs) = (utf8, other.utf8)
    guard mine.allSatisfy({ $0 < 0x80 }), theirs.allSatisfy({ $0 < 0x80 }) else {
      return lowercased() == other.lowercased()
    }
    return mine.elementsEqual(theirs) { Self.lower($0) == Self.lower($1) }
  }

  /// An ASCII character that is not white space (a space or a tab; every other white space
  /// character is beyond ASCII).
  @usableFromInline static func isPlainASCII(_ byte: UInt8) -> Bool {
    byte < 0x80 && byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t")
  }

  @usableFromInline static func lower(_ byte: UInt8) -> UInt8 {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
  }
}
