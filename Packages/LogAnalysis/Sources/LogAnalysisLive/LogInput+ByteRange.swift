import Foundation
import LogAnalysis

extension LogInput {
  /// Analyses the lines of the file `input` that begin in `byteRange`, by Hadoop's
  /// `LineRecordReader` rule: from the first line that begins at or after its start (the line
  /// that straddles the start belongs to the split before) through the line that straddles
  /// its end. Ranges that tile a file give, appended in order, the analysis of the whole file.
  /// The format is found from the file's first bytes, as for the whole file; a W3C split reads
  /// by the last `#Fields:` line before it. A gzip file is one split: the range that holds its
  /// byte 0 reads all of it, any other none. Returns the result, the bytes read and the bytes
  /// of log text.
  public static func analyze(
    _ input: String, byteRange: Range<Int>, options: AnalysisOptions, format: LogFormat? = nil,
    readingTimes: Bool = false
  ) throws(LogInputError) -> (partial: Partial, bytes: Int, logBytes: Int) {
    let kind = try kind(of: input)
    do {
      switch kind {
      case .stream:
        throw LogInputError("\(input): a byte range needs a regular file, not a stream")
      case .gzipFile:
        guard byteRange.contains(0) else { return (Partial(options: options), 0, 0) }
        return try analyze(
          [input], options: options, format: format, readingTimes: readingTimes)
      case .plainFile(let size):
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
        defer { try? file.close() }
        let descriptor = file.fileDescriptor
        let split = try LogFile.split(descriptor, byteRange, size: size)
        guard !split.isEmpty else { return (Partial(options: options), 0, 0) }
        let format = try format ?? formatOfFile(descriptor, size: size)
        guard case .w3c = format else {
          let partial = try LogAnalyzer.analyze(
            file, from: split.lowerBound, to: split.upperBound, options: options, format: format,
            readingTimes: readingTimes)
          return (partial, split.count, split.count)
        }
        var fields = try LogFile.lastLine(
          descriptor, startingWith: Array("#Fields:".utf8), before: split.lowerBound
        ) { W3CLayout(header: $0)?.isUsable ?? false }
        try file.seek(toOffset: UInt64(split.lowerBound))
        var left = split.count
        let partial = try LogAnalyzer.analyze(
          reading: {
            guard left > 0, let block = try file.read(upToCount: min(left, 4 << 20)) else {
              return nil
            }
            left -= block.count
            return block
          }, options: options, format: format, readingTimes: readingTimes, fields: &fields)
        return (partial, split.count, split.count)
      }
    } catch let error as LogInputError {
      throw error
    } catch let error as AnalysisOptionError {
      throw LogInputError("\(input): \(error)")
    } catch {
      throw LogInputError("cannot read \(input): \(error.localizedDescription)")
    }
  }

  /// The format the first bytes of the file show.
  private static func formatOfFile(_ descriptor: Int32, size: Int) throws -> LogFormat {
    var sample = [UInt8](repeating: 0, count: min(size, Tuning.formatSampleSize))
    let count = sample.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    guard count >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    return sample.prefix(count).withUnsafeBytes { LogFormat.detect($0) }
  }
}
