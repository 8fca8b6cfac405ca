import Foundation

/// A UTF-32 document turned into UTF-8 as it is read, for libxml2: Debian 12's has no UCS-4
/// converter, and refuses UTF-32 (xmllint too). It is known by its first four bytes (a byte
/// order mark, or a `<` in either order); libxml2 is then told to pass over the encoding its
/// declaration names.
struct UTF32Input {
  private let bigEndian: Bool
  /// The bytes of a character cut between two pieces.
  private var carry = Data()
  private var started = false

  /// The reader of a document that starts with `head`, nil when it is not UTF-32.
  init?(_ head: Data) {
    switch Array(head.prefix(4)) {
    case [0, 0, 0xFE, 0xFF], [0, 0, 0, 0x3C]: bigEndian = true
    case [0xFF, 0xFE, 0, 0], [0x3C, 0, 0, 0]: bigEndian = false
    default: return nil
    }
  }

  /// `piece` as UTF-8 (a leading byte order mark dropped); throws for a value that is no
  /// character.
  mutating func utf8(_ piece: Data) throws -> Data {
    let bytes = carry + piece
    let whole = bytes.count / 4 * 4
    carry = bytes.suffix(from: bytes.startIndex + whole)
    var text = String.UnicodeScalarView()
    var offset = bytes.startIndex
    while offset < bytes.startIndex + whole {
      let units = bytes[offset..<offset + 4].map(UInt32.init)
      let value =
        bigEndian
        ? units[0] << 24 | units[1] << 16 | units[2] << 8 | units[3]
        : units[3] << 24 | units[2] << 16 | units[1] << 8 | units[0]
      offset += 4
      guard let scalar = Unicode.Scalar(value) else {
        throw XMLPathError.malformed(
          line: 0, column: 0, reason: "a value that is no character in a UTF-32 document")
      }
      if !started && value == 0xFEFF {
        started = true
        continue
      }
      started = true
      text.append(scalar)
    }
    return Data(String(text).utf8)
  }
}
