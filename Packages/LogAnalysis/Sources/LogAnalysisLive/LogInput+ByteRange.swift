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
    readingTimes: Bool = false, jobs: Int = ProcessInfo.processInfo.activeProcessorCount
  ) throws(LogInputError) -> (partial: Partial, bytes: Int, logBytes: Int) {
    let kind = try kind(of: input)
    do {
      switch kind {
      case .stream:
        throw LogInputError("\(input): a byte range needs a regular file, not a stream")
      case .gzipFile:
        guard byteRange.contains(0) else { return (Partial(options: options), 0, 0) }
        return try analyze(
          [input], options: options, format: format, readingTimes: readingTimes, jobs: jobs)
      case .plainFile(let size):
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
        defer { try? file.close() }
        let log = RangeReader.file(file.fileDescriptor, size: size)
        let split = try LogSplit.bounds(log, byteRange)
        guard !split.isEmpty else { return (Partial(options: options), 0, 0) }
        let format = try format ?? detectedFormat(log)
        // A W3C log is read in order, by its headers; any other on every core.
        if case .w3c = format {
          return try analyzeSplit(
            log, split, options: options, format: format, readingTimes: readingTimes, jobs: jobs)
        }
        let partial = try LogAnalyzer.analyze(
          file, from: split.lowerBound, to: split.upperBound, options: options, format: format,
          readingTimes: readingTimes, chunks: jobs)
        return (partial, split.count, split.count)
      }
    } catch {
      throw inputError(error, input)
    }
  }

  /// Analyses the lines of the log that `log` reads (a server's, by Range requests) that
  /// begin in `byteRange`, as `analyze(_:byteRange:options:format:readingTimes:)` does a
  /// file's; gzip is known by the log's first bytes. Errors name the log as `name`.
  public static func analyze(
    _ log: RangeReader, named name: String, byteRange: Range<Int>, options: AnalysisOptions,
    format: LogFormat? = nil, readingTimes: Bool = false,
    jobs: Int = ProcessInfo.processInfo.activeProcessorCount
  ) throws(LogInputError) -> (partial: Partial, bytes: Int, logBytes: Int) {
    do {
      let start = try log.read(0..<min(log.size, 2))
      if start.starts(with: gzipMagic) {
        guard byteRange.contains(0) else { return (Partial(options: options), 0, 0) }
        let (partial, inflated) = try analyzeGzip(
          reading: log.blocks(in: 0..<log.size), options: options, format: format,
          readingTimes: readingTimes, jobs: jobs)
        return (partial, log.size, inflated)
      }
      let split = try LogSplit.bounds(log, byteRange)
      guard !split.isEmpty else { return (Partial(options: options), 0, 0) }
      return try analyzeSplit(
        log, split, options: options, format: try format ?? detectedFormat(log),
        readingTimes: readingTimes, jobs: jobs)
    } catch {
      throw inputError(error, name)
    }
  }

  /// The lines of `split` read in order, in blocks; a W3C split by the last usable `#Fields:`
  /// line before it.
  private static func analyzeSplit(
    _ log: RangeReader, _ split: Range<Int>, options: AnalysisOptions, format: LogFormat,
    readingTimes: Bool, jobs: Int
  ) throws -> (partial: Partial, bytes: Int, logBytes: Int) {
    var fields: Data?
    if case .w3c = format {
      // Before the log's first header (its leading directives), the whole log's read goes by
      // that header too.
      fields =
        try LogSplit.lastLine(
          log, startingWith: Array("#Fields:".utf8), before: split.lowerBound
        ) { W3CLayout(header: $0)?.isUsable ?? false } ?? LogSplit.leadingHeader(log)
    }
    let partial = try LogAnalyzer.analyze(
      reading: log.blocks(in: split), options: options, format: format, readingTimes: readingTimes,
      chunks: jobs,
      fields: &fields)
    return (partial, split.count, split.count)
  }

  /// The format the log's first bytes show.
  private static func detectedFormat(_ log: RangeReader) throws -> LogFormat {
    let sample = try log.read(0..<min(log.size, Tuning.formatSampleSize))
    return sample.withUnsafeBytes { LogFormat.detect($0) }
  }
}
