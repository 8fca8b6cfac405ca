import Foundation
import LogAnalysis

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension LogAnalyzer {
  /// Analyses the file at `url`: one range of whole lines per core, each read with `pread`
  /// in blocks of `blockSize` bytes, so memory does not grow with the file. `progress` is
  /// called, from any thread, with the number of bytes each block added.
  /// Lines are read as `analyze(_:options:format:chunks:)` reads them; a W3C log is read as a
  /// stream.
  public static func analyze(
    fileAt url: URL, options: AnalysisOptions, format: LogFormat? = nil,
    readingTimes: Bool = false, chunks: Int = ProcessInfo.processInfo.activeProcessorCount,
    blockSize: Int = Tuning.fileBlockSize,
    progress: @Sendable (Int) -> Void = { _ in }
  ) throws -> Partial {
    let file = try FileHandle(forReadingFrom: url)
    defer { try? file.close() }
    return try analyze(
      file, from: 0, to: Int(file.seekToEnd()), options: options, format: format,
      readingTimes: readingTimes, chunks: chunks, blockSize: blockSize, progress: progress)
  }

  /// Analyses the bytes of `file` from `start` to `end`, which start a line and end one, as
  /// `analyze(fileAt:options:)` does a whole file.
  static func analyze(
    _ file: FileHandle, from start: Int, to size: Int, options: AnalysisOptions,
    format: LogFormat? = nil, readingTimes: Bool = false,
    chunks: Int = ProcessInfo.processInfo.activeProcessorCount,
    blockSize: Int = Tuning.fileBlockSize, progress: @Sendable (Int) -> Void = { _ in }
  ) throws -> Partial {
    let descriptor = file.fileDescriptor
    var sample = [UInt8](repeating: 0, count: min(size, Tuning.formatSampleSize))
    let sampled = sample.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    guard sampled >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    let format = format ?? sample.prefix(sampled).withUnsafeBytes { LogFormat.detect($0) }
    let layout = try sample.prefix(sampled).withUnsafeBytes {
      try Self.layout(format, options, sample: $0)
    }
    if case .w3c = layout {
      precondition(start == 0, "a W3C log is read from its start")
      try file.seek(toOffset: 0)
      return try analyze(
        reading: {
          let block = try file.read(upToCount: Tuning.w3cBlockSize)
          progress(block?.count ?? 0)
          return block
        }, options: options, format: format, readingTimes: readingTimes)
    }
    let bounds = try LogFile.lineAlignedBounds(
      descriptor, range: start..<max(start, size), count: max(1, chunks))
    let results = concurrentMap(bounds.count) { index in
      Result {
        try Partial.reading(options: options, layout: layout, readingTimes: readingTimes) { read in
          try LogFile.readLines(
            descriptor, range: bounds[index], blockSize: blockSize, progress: progress, read)
        }
      }
    }
    var partial = merged(try results.map { try $0.get() }, options: options)
    partial.formatName = format.name
    return partial
  }
}
