import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading a plain log file with `pread`: ranges of whole lines, one per core, each read in
/// blocks, so that counting (`LogAnalyzer`) never sees a line cut in two. Gzip is read apart,
/// by `GzipReader`.
enum LogFile {
  /// Reads `range` of the file in blocks and hands `body` whole lines only (the last line of
  /// the range may lack its newline).
  static func readLines(
    _ descriptor: Int32, range: Range<Int>, blockSize: Int,
    _ body: (UnsafeRawBufferPointer) -> Void
  ) throws {
    var buffer = [UInt8](repeating: 0, count: blockSize)
    var filled = 0
    var offset = range.lowerBound
    while offset < range.upperBound || filled > 0 {
      if filled == buffer.count { buffer.append(contentsOf: repeatElement(0, count: blockSize)) }
      let wanted = min(buffer.count - filled, range.upperBound - offset)
      let count =
        wanted == 0
        ? 0
        : buffer.withUnsafeMutableBytes {
          pread(descriptor, $0.baseAddress! + filled, wanted, off_t(offset))
        }
      guard count >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
      offset += count
      filled += count
      let atEnd = offset >= range.upperBound || count == 0
      let usable: Int
      if atEnd {
        usable = filled
      } else if let newline = buffer[0..<filled].lastIndex(of: UInt8(ascii: "\n")) {
        usable = newline + 1
      } else {
        continue  // a line longer than the buffer: read more of it
      }
      buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<usable])) }
      buffer.withUnsafeMutableBytes { bytes in
        bytes.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[usable..<filled]))
      }
      filled -= usable
      if atEnd && count == 0 { break }
    }
  }

  /// About `count` ranges of whole lines covering the file.
  static func lineAlignedBounds(_ descriptor: Int32, size: Int, count: Int) throws
    -> [Range<Int>]
  {
    var bounds: [Range<Int>] = []
    var start = 0
    var probe = [UInt8](repeating: 0, count: 64 * 1024)
    while start < size {
      var end = min(size, start + max(1, size / count))
      // Move the end just past the next newline.
      search: while end < size {
        let read = probe.withUnsafeMutableBytes {
          pread(descriptor, $0.baseAddress!, $0.count, off_t(end - 1))
        }
        guard read > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        if let newline = probe[0..<read].firstIndex(of: UInt8(ascii: "\n")) {
          end = end - 1 + newline + 1
          break search
        }
        end += read
      }
      end = min(end, size)
      bounds.append(start..<end)
      start = end
    }
    return bounds
  }
}
