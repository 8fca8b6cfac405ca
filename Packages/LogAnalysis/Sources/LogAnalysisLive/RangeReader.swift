import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A log's bytes by offset, for reading a split of it (`LogInput.analyze(_:named:byteRange:…)`):
/// a file's, read with `pread`, or an HTTP server's, read with Range requests.
public struct RangeReader: Sendable {
  /// The log's size in bytes.
  public let size: Int
  /// The bytes in `range`, which lies within `0..<size`.
  public let read: @Sendable (_ range: Range<Int>) throws -> Data

  public init(size: Int, read: @escaping @Sendable (_ range: Range<Int>) throws -> Data) {
    self.size = size
    self.read = read
  }

  /// A reader of `range`, 4 MiB at a time, in order: nil at its end.
  func blocks(in range: Range<Int>) -> () throws -> Data? {
    var position = range.lowerBound
    return {
      guard position < range.upperBound else { return nil }
      let block = try read(position..<min(range.upperBound, position + (4 << 20)))
      position += block.count
      return block.isEmpty ? nil : block
    }
  }

  /// The file open at `descriptor`, of `size` bytes.
  static func file(_ descriptor: Int32, size: Int) -> RangeReader {
    RangeReader(size: size) { range in
      var data = Data(count: range.count)
      let count = data.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, range.count, off_t(range.lowerBound))
      }
      guard count >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
      return data.prefix(count)
    }
  }
}
