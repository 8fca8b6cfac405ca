/// Turns bytes that arrive in blocks (reads of a file, a pipe, inflated gzip) into blocks of
/// whole lines, in linear time and bounded memory whatever the lines' lengths: only the
/// unfinished line is carried from one block to the next, and only its first
/// `LineLimit.maxLength + 1` bytes. The rest of a longer line is dropped as it arrives; the
/// line is handed on cut to that length, which every reader counts as malformed
/// (`LineLimit.isOverlong`).
package struct LineAssembler {
  /// The start of the unfinished line.
  private var carry: [UInt8] = []
  /// The unfinished line is longer than the bound: its bytes up to the newline are dropped.
  private var overlong = false
  private static let newline = UInt8(ascii: "\n")
  private static let kept = LineLimit.maxLength + 1

  package init() {}

  /// Hands `body` the whole lines that `block` completes, in order, each with its newline;
  /// keeps the unfinished line that ends it.
  package mutating func append(
    _ block: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void
  ) rethrows {
    var rest = block[...]
    if !carry.isEmpty || overlong {
      guard let end = rest.firstIndex(of: Self.newline) else { return take(rest) }
      take(rest[..<end])
      carry.append(Self.newline)
      try carry.withUnsafeBytes(body)
      carry.removeAll(keepingCapacity: true)
      overlong = false
      rest = rest[(end + 1)...]
    }
    if let last = rest.lastIndex(of: Self.newline) {
      try body(UnsafeRawBufferPointer(rebasing: rest[...last]))
      rest = rest[(last + 1)...]
    }
    take(rest)
  }

  /// Hands `body` the last line, which has no newline, if there is one.
  package mutating func finish(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
    guard !carry.isEmpty || overlong else { return }
    try carry.withUnsafeBytes(body)
    carry.removeAll()
    overlong = false
  }

  /// Adds `bytes` to the unfinished line, up to the bound.
  private mutating func take(_ bytes: Slice<UnsafeRawBufferPointer>) {
    let room = Self.kept - carry.count
    carry.append(contentsOf: bytes.prefix(room))
    if bytes.count > room { overlong = true }
  }
}
