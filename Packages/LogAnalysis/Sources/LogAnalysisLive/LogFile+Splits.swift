import Foundation
import LogAnalysis

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Splits of a plain log file by Hadoop's `LineRecordReader` rule: a split `[start, end)`
/// holds the lines that *begin* in it, so that splits that tile a file hold each line once.
extension LogFile {
  /// Where the first line that begins at or after `offset` begins: `offset` itself when it is
  /// 0 or follows a newline, else just past the next newline; `size` when no line begins there.
  static func lineStart(_ descriptor: Int32, atOrAfter offset: Int, size: Int) throws -> Int {
    guard offset > 0 else { return 0 }
    guard offset < size else { return size }
    var probe = [UInt8](repeating: 0, count: 64 * 1024)
    var position = offset - 1
    while position < size {
      let count = probe.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress!, min($0.count, size - position), off_t(position))
      }
      guard count > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
      if let newline = probe[0..<count].firstIndex(of: UInt8(ascii: "\n")) {
        return position + newline + 1
      }
      position += count
    }
    return size
  }

  /// The bytes of the lines that begin in `range` of a file of `size` bytes: from the first
  /// line that begins at or after its start to the first that begins at or after its end.
  static func split(_ descriptor: Int32, _ range: Range<Int>, size: Int) throws -> Range<Int> {
    let first = try lineStart(descriptor, atOrAfter: range.lowerBound, size: size)
    let last = try lineStart(descriptor, atOrAfter: max(range.upperBound, first), size: size)
    return first..<max(first, last)
  }

  /// The last line before `end` that starts with `prefix` and that `accepts`, read whole
  /// (without its newline); nil when there is none. Read backwards, a block at a time, so that
  /// a header written shortly before `end` costs little however long the file.
  static func lastLine(
    _ descriptor: Int32, startingWith prefix: [UInt8], before end: Int,
    where accepts: (UnsafeRawBufferPointer) -> Bool
  ) throws -> Data? {
    let needle = [UInt8(ascii: "\n")] + prefix
    var probe = [UInt8](repeating: 0, count: 64 * 1024)
    var blockEnd = end
    while blockEnd > 0 {
      let blockStart = max(0, blockEnd - probe.count)
      let count = probe.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress!, blockEnd - blockStart, off_t(blockStart))
      }
      guard count == blockEnd - blockStart else {
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
      }
      var starts: [Int] = []
      if count >= needle.count {
        for index in stride(from: count - needle.count, through: 0, by: -1)
        where probe[index] == needle[0]
          && probe[index..<(index + needle.count)].elementsEqual(needle)
        {
          starts.append(blockStart + index + 1)
        }
      }
      if blockStart == 0 && probe[0..<min(count, prefix.count)].elementsEqual(prefix) {
        starts.append(0)
      }
      for start in starts {
        let line = try self.line(descriptor, at: start)
        if line.withUnsafeBytes(accepts) { return line }
      }
      if blockStart == 0 { break }
      // Overlapping by the needle less a byte: one across the boundary is found next.
      blockEnd = blockStart + needle.count - 1
    }
    return nil
  }

  /// The line that begins at `start`, without its newline.
  private static func line(_ descriptor: Int32, at start: Int) throws -> Data {
    var line = Data()
    var probe = [UInt8](repeating: 0, count: 4096)
    var position = start
    while line.count <= LineLimit.maxLength {
      let count = probe.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress!, $0.count, off_t(position))
      }
      guard count >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
      if count == 0 { break }
      if let newline = probe[0..<count].firstIndex(of: UInt8(ascii: "\n")) {
        line.append(contentsOf: probe[0..<newline])
        break
      }
      line.append(contentsOf: probe[0..<count])
      position += count
    }
    return line
  }
}
