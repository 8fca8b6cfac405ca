/// A place in UTF-8 text as people count it: the line and the column, both from 1, the column
/// in characters (Unicode scalars), as libxml2 counts them too.
struct TextPosition: Equatable {
  var line: Int
  var column: Int

  /// The position of byte `offset` of `bytes`.
  init(of offset: Int, in bytes: UnsafeRawBufferPointer) {
    var (line, column) = (1, 1)
    for byte in bytes[..<min(offset, bytes.count)] {
      if byte == UInt8(ascii: "\n") {
        (line, column) = (line + 1, 1)
      } else if byte & 0xC0 != 0x80 {  // not a continuation byte: a new character
        column += 1
      }
    }
    self.init(line: line, column: column)
  }

  init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  /// The byte offset in `bytes` of this position (the end when it lies past the text).
  func offset(in bytes: UnsafeRawBufferPointer) -> Int {
    var (line, column) = (1, 1)
    for (offset, byte) in bytes.enumerated() {
      if line == self.line && column >= self.column && byte & 0xC0 != 0x80 { return offset }
      if byte == UInt8(ascii: "\n") {
        if line == self.line { return offset }
        (line, column) = (line + 1, 1)
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return bytes.count
  }
}
