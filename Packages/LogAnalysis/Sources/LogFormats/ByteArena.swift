/// Room for bytes that a line does not hold as they are (decoded JSON strings, a path joined
/// to its query, an address joined to a user agent). Pointers it gives stay valid until
/// `removeAll()`.
package final class ByteArena {
  private var blocks: [UnsafeMutableRawBufferPointer] = []
  private var used = 0
  private static let blockSize = 64 << 10

  package init() {}

  deinit { for block in blocks { block.deallocate() } }

  /// Room for `count` bytes.
  package func allocate(_ count: Int) -> UnsafeMutableRawBufferPointer {
    if blocks.isEmpty || used + count > blocks[blocks.count - 1].count {
      blocks.append(.allocate(byteCount: max(Self.blockSize, count), alignment: 8))
      used = 0
    }
    let block = blocks[blocks.count - 1]
    defer { used += count }
    return UnsafeMutableRawBufferPointer(rebasing: block[used..<used + count])
  }

  /// `parts` one after the other.
  package func joined(_ parts: UnsafeRawBufferPointer...) -> UnsafeRawBufferPointer {
    let room = allocate(parts.reduce(0) { $0 + $1.count })
    var offset = 0
    for part in parts where part.count > 0 {
      UnsafeMutableRawBufferPointer(rebasing: room[offset..<offset + part.count]).copyMemory(
        from: part)
      offset += part.count
    }
    return UnsafeRawBufferPointer(room)
  }

  /// Frees all but the first block.
  package func removeAll() {
    for block in blocks.dropFirst() { block.deallocate() }
    blocks = Array(blocks.prefix(1))
    used = 0
  }
}
