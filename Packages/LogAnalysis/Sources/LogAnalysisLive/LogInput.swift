import Foundation
import LogAnalysis

/// Why an input could not be analysed, naming it.
public struct LogInputError: Error, Equatable, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}

/// Opens what `fetcher analyze` is given: files, `-` for standard input, named pipes, each
/// gzip-compressed or not (known by its first bytes, not its name), analysed in the order
/// given as if they were one log.
public enum LogInput {
  /// Analyses `inputs` in order; returns the result, the bytes read (compressed bytes for
  /// gzip input) and the bytes of log text analysed (inflated). `progress` is called, from
  /// any thread, with the bytes each block of a plain regular file added. `readingTimes`
  /// reads the visits' times for `Partial.timeRange`.
  public static func analyze(
    _ inputs: [String], options: AnalysisOptions, format: LogFormat? = nil,
    readingTimes: Bool = false, progress: @Sendable (Int) -> Void = { _ in }
  ) throws(LogInputError) -> (partial: Partial, bytes: Int, logBytes: Int) {
    try analyze(
      inputs, options: options, format: format, readingTimes: readingTimes,
      jobs: ProcessInfo.processInfo.activeProcessorCount, progress: progress)
  }

  /// `analyze(_:options:format:readingTimes:progress:)` on `jobs` threads: a plain file is
  /// read in `jobs` ranges at once, a stream's blocks are cut into `jobs` pieces (fetcher's
  /// `--jobs`; one for a task of a Spark executor that has one core).
  public static func analyze(
    _ inputs: [String], options: AnalysisOptions, format: LogFormat? = nil,
    readingTimes: Bool = false, jobs: Int, progress: @Sendable (Int) -> Void = { _ in }
  ) throws(LogInputError) -> (partial: Partial, bytes: Int, logBytes: Int) {
    // A missing input fails the run before any is read.
    for input in inputs where input != "-" { _ = try kind(of: input) }
    var total: Partial?
    var (bytes, logBytes) = (0, 0)
    for input in inputs {
      let (partial, size, text) = try analyze(
        input, options: options, format: format, readingTimes: readingTimes, jobs: jobs,
        progress: progress)
      bytes += size
      logBytes += text
      if total == nil { total = partial } else { total!.append(releasing: partial) }
    }
    return (total ?? Partial(options: options), bytes, logBytes)
  }

  /// The total size of the plain regular files among `inputs`: what `progress` will count.
  public static func plainFileBytes(_ inputs: [String]) -> Int {
    inputs.reduce(0) { total, input in
      guard input != "-", let kind = try? kind(of: input), case .plainFile(let size) = kind else {
        return total
      }
      return total + size
    }
  }

  enum Kind {
    case plainFile(size: Int)
    case gzipFile(size: Int)
    /// A named pipe, a device, `<(command)`: read once, as a stream.
    case stream
  }

  /// The first bytes of gzip data.
  static let gzipMagic: [UInt8] = [0x1f, 0x8b]

  static func kind(of input: String) throws(LogInputError) -> Kind {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: input, isDirectory: &isFolder) else {
      throw LogInputError("\(input): no such file")
    }
    guard !isFolder.boolValue else { throw LogInputError("\(input) is a folder") }
    guard FileManager.default.isReadableFile(atPath: input) else {
      throw LogInputError("\(input): permission denied")
    }
    let attributes = try? FileManager.default.attributesOfItem(atPath: input)
    guard attributes?[.type] as? FileAttributeType == .typeRegular else { return .stream }
    let size = attributes?[.size] as? Int ?? 0
    let start = FileHandle(forReadingAtPath: input).flatMap { try? $0.read(upToCount: 2) }
    return start.map(Array.init) == gzipMagic ? .gzipFile(size: size) : .plainFile(size: size)
  }

  private static func analyze(
    _ input: String, options: AnalysisOptions, format: LogFormat?, readingTimes: Bool,
    jobs: Int, progress: @Sendable (Int) -> Void
  ) throws(LogInputError) -> (Partial, Int, Int) {
    do {
      if input == "-" {
        return try analyzeStream(
          FileHandle.standardInput, options: options, format: format, readingTimes: readingTimes,
          jobs: jobs)
      }
      switch try kind(of: input) {
      case .plainFile(let size):
        let partial = try LogAnalyzer.analyze(
          fileAt: URL(fileURLWithPath: input), options: options, format: format,
          readingTimes: readingTimes, chunks: jobs, progress: progress)
        return (partial, size, size)
      case .gzipFile, .stream:
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
        defer { try? file.close() }
        return try analyzeStream(
          file, options: options, format: format, readingTimes: readingTimes, jobs: jobs)
      }
    } catch {
      throw inputError(error, input)
    }
  }

  /// `error` as a `LogInputError` naming `input`.
  static func inputError(_ error: any Error, _ input: String) -> LogInputError {
    switch error {
    case let error as LogInputError: error
    case let error as AnalysisOptionError: LogInputError("\(input): \(error)")
    case let error as GzipError: LogInputError("\(input): \(error)")
    default: LogInputError("cannot read \(input): \(error.localizedDescription)")
    }
  }

  /// Reads `file` to its end, inflating it when it starts as gzip does; returns the result,
  /// the bytes read and the bytes of log text.
  private static func analyzeStream(
    _ file: FileHandle, options: AnalysisOptions, format: LogFormat?, readingTimes: Bool,
    jobs: Int
  ) throws -> (Partial, Int, Int) {
    var bytes = 0
    var first: Data? = try file.read(upToCount: 4 << 20)
    let read = { () throws -> Data? in
      if let block = first {
        first = nil
        return block
      }
      let block = try file.read(upToCount: 4 << 20)
      bytes += block?.count ?? 0
      return block
    }
    bytes += first?.count ?? 0
    var fields: Data?
    guard let start = first, start.starts(with: gzipMagic) else {
      let partial = try LogAnalyzer.analyze(
        reading: read, options: options, format: format, readingTimes: readingTimes,
        chunks: jobs, fields: &fields)
      return (partial, bytes, bytes)
    }
    let (partial, inflated) = try analyzeGzip(
      reading: read, options: options, format: format, readingTimes: readingTimes, jobs: jobs)
    return (partial, bytes, inflated)
  }

  /// Analyses the gzip data that `read` returns, inflated; returns the result and the bytes of
  /// log text.
  static func analyzeGzip(
    reading read: @escaping () throws -> Data?, options: AnalysisOptions, format: LogFormat?,
    readingTimes: Bool, jobs: Int
  ) throws -> (Partial, Int) {
    let reader = try GzipReader(reading: read)
    var inflated = 0
    var fields: Data?
    let partial = try LogAnalyzer.analyze(
      reading: {
        let block = try reader.next()
        inflated += block?.count ?? 0
        return block
      }, options: options, format: format, readingTimes: readingTimes, chunks: jobs,
      fields: &fields)
    return (partial, inflated)
  }
}
