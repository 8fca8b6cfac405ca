import Foundation

/// FoundationXML reads a processing instruction without data (`<?name?>`) as a null string and
/// crashes on it (found by Fuzz/XMLPathTarget.swift). Such an instruction means the same as
/// one with empty data (`<?name ?>`), which it reads, so one space is added to each before
/// parsing. The document is UTF-8 by then (see `DocumentText`).
enum ProcessingInstructions {
  /// `data` with a space after the target of every processing instruction without data.
  static func withData(_ data: Data) -> Data {
    let insertions = data.withUnsafeBytes(places)
    guard !insertions.isEmpty else { return data }
    var out = Data(capacity: data.count + insertions.count)
    var start = data.startIndex
    for insertion in insertions {
      out.append(data[start..<data.startIndex + insertion])
      out.append(UInt8(ascii: " "))
      start = data.startIndex + insertion
    }
    out.append(data[start...])
    return out
  }

  /// The offsets of the `?>` of every `<?name?>`. The scan reads no context, as libxml2's
  /// recovery from a malformed document may not either: a `<?name?>` in a CDATA section reads
  /// with the space too.
  private static func places(in bytes: UnsafeRawBufferPointer) -> [Int] {
    var insertions: [Int] = []
    var index = 0
    while let open = next(UInt8(ascii: "<"), in: bytes, from: index) {
      index = open + 1
      guard bytes.has("<?", at: open) else { continue }
      var end = open + 2
      while end < bytes.count, !isSpace(bytes[end]), bytes[end] != UInt8(ascii: "<"),
        !bytes.has("?>", at: end)
      {
        end += 1
      }
      if bytes.has("?>", at: end) { insertions.append(end) }
    }
    return insertions
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}

/// The offset of the first `byte` in `bytes` from `index`, found with memchr.
private func next(_ byte: UInt8, in bytes: UnsafeRawBufferPointer, from index: Int) -> Int? {
  guard index < bytes.count, let base = bytes.baseAddress,
    let found = memchr(base + index, Int32(byte), bytes.count - index)
  else { return nil }
  return base.distance(to: found)
}
