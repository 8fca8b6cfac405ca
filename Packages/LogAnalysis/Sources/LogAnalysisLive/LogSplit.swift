import Foundation
import LogAnalysis

/// Splits of a log by Hadoop's `LineRecordReader` rule: a split `[start, end)` holds the
/// lines that *begin* in it, so that splits that tile a log hold each line once.
enum LogSplit {
  /// The bytes read at a time when looking for a newline or a header.
  private static let probe = 64 * 1024

  /// How far past an offset a newline is looked for: a line longer than this is no log's,
  /// and a server that says its log is huge cannot have a split read without end.
  static let longestLine = 256 << 20

  /// Where the first line that begins at or after `offset` begins: `offset` itself when it is
  /// 0 or follows a newline, else just past the next newline; the log's size when no line
  /// begins there. Throws when no newline comes within `longestLine` bytes before the end.
  static func lineStart(_ log: RangeReader, atOrAfter offset: Int) throws -> Int {
    guard offset > 0 else { return 0 }
    guard offset < log.size else { return log.size }
    var position = offset - 1
    while position < log.size {
      guard position - offset < longestLine else {
        throw LogInputError(
          "no line ends within \(longestLine >> 20) MiB after byte \(offset) of the log's "
            + "\(log.size): is it a log?")
      }
      let block = try log.read(position..<min(log.size, position + probe))
      guard !block.isEmpty else { break }
      if let newline = block.firstIndex(of: UInt8(ascii: "\n")) {
        return position + (newline - block.startIndex) + 1
      }
      position += block.count
    }
    return log.size
  }

  /// The bytes of the lines that begin in `range`: from the first line that begins at or
  /// after its start to the first that begins at or after its end.
  static func bounds(_ log: RangeReader, _ range: Range<Int>) throws -> Range<Int> {
    let first = try lineStart(log, atOrAfter: range.lowerBound)
    let last = try lineStart(log, atOrAfter: max(range.upperBound, first))
    return first..<max(first, last)
  }

  /// The last line before `end` that starts with `prefix` and that `accepts`, read whole
  /// (without its newline); nil when there is none. Read backwards, a block at a time, so that
  /// a header written shortly before `end` costs little however long the log.
  static func lastLine(
    _ log: RangeReader, startingWith prefix: [UInt8], before end: Int,
    where accepts: (UnsafeRawBufferPointer) -> Bool
  ) throws -> Data? {
    let needle = [UInt8(ascii: "\n")] + prefix
    var blockEnd = end
    while blockEnd > 0 {
      let blockStart = max(0, blockEnd - probe)
      let block = [UInt8](try log.read(blockStart..<blockEnd))
      var starts: [Int] = []
      if block.count >= needle.count {
        for index in stride(from: block.count - needle.count, through: 0, by: -1)
        where block[index] == needle[0]
          && block[index..<(index + needle.count)].elementsEqual(needle)
        {
          starts.append(blockStart + index + 1)
        }
      }
      if blockStart == 0 && block.starts(with: prefix) { starts.append(0) }
      for start in starts {
        let line = try self.line(log, at: start)
        if line.withUnsafeBytes(accepts) { return line }
      }
      if blockStart == 0 { break }
      // Overlapping by the needle less a byte: one across the boundary is found next.
      blockEnd = blockStart + needle.count - 1
    }
    return nil
  }

  /// The `#Fields:` line among the directives that start a W3C log (blank lines may come
  /// between them), which the whole log's read goes by; nil when an entry comes first.
  static func leadingHeader(_ log: RangeReader) throws -> Data? {
    let sample = try log.read(0..<min(log.size, Tuning.formatSampleSize))
    for line in sample.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      let text = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
      if text.isEmpty { continue }
      guard text.first == UInt8(ascii: "#") else { return nil }
      if Data(text).withUnsafeBytes({ W3CLayout(header: $0) }) != nil { return Data(text) }
    }
    return nil
  }

  /// The line that begins at `start`, without its newline (its first MiB at most).
  private static func line(_ log: RangeReader, at start: Int) throws -> Data {
    var line = Data()
    var position = start
    while position < log.size && line.count <= LineLimit.maxLength {
      let block = try log.read(position..<min(log.size, position + 4096))
      guard !block.isEmpty else { break }
      if let newline = block.firstIndex(of: UInt8(ascii: "\n")) {
        line.append(block[block.startIndex..<newline])
        break
      }
      line.append(block)
      position += block.count
    }
    return line
  }
}
