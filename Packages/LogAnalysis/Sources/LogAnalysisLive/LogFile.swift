import Foundation
import LogAnalysis

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
  /// the range may lack its newline), as `LineAssembler` cuts them; `progress` gets the size
  /// of each block read.
  static func readLines(
    _ descriptor: Int32, range: Range<Int>, blockSize: Int, progress: (Int) -> Void = { _ in },
    _ body: (UnsafeRawBufferPointer) -> Void
  ) throws {
    var buffer = [UInt8](repeating: 0, count: blockSize)
    var lines = LineAssembler()
    var offset = range.lowerBound
    while offset < range.upperBound {
      let wanted = min(buffer.count, range.upperBound - offset)
      let count = buffer.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress!, wanted, off_t(offset))
      }
      guard count >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
      if count == 0 { break }
      offset += count
      buffer.withUnsafeBytes { lines.append(UnsafeRawBufferPointer(rebasing: $0[0..<count]), body) }
      progress(count)
    }
    lines.finish(body)
  }

  /// Where the last whole line in `range` of the file ends (just past its newline), or
  /// `range.lowerBound` when it holds none.
  static func endOfLastLine(_ descriptor: Int32, in range: Range<Int>) throws -> Int {
    var probe = [UInt8](repeating: 0, count: 64 * 1024)
    var end = range.upperBound
    while end > range.lowerBound {
      let start = max(range.lowerBound, end - probe.count)
      let read = probe.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress!, end - start, off_t(start))
      }
      guard read == end - start else {
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
      }
      if let newline = probe[0..<read].lastIndex(of: UInt8(ascii: "\n")) {
        return start + newline + 1
      }
      end = start
    }
    return range.lowerBound
  }

  /// About `count` ranges of whole lines covering `range` of the file, which starts a line.
  static func lineAlignedBounds(_ descriptor: Int32, range: Range<Int>, count: Int) throws
    -> [Range<Int>]
  {
    let log = RangeReader.file(descriptor, size: range.upperBound)
    var bounds: [Range<Int>] = []
    var start = range.lowerBound
    while start < range.upperBound {
      let end = try LogSplit.lineStart(
        log, atOrAfter: min(range.upperBound, start + max(1, range.count / count)))
      bounds.append(start..<end)
      start = end
    }
    return bounds
  }
}
