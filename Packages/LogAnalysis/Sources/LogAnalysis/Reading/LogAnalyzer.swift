import Foundation

/// Analyses access logs: every line is read, lines are cut into chunks analysed on every
/// core, and the chunks' partial results are merged in order.
public enum LogAnalyzer {
  /// Analyses `bytes`, cut at line boundaries into about `chunks` pieces analysed in parallel.
  /// Lines are read in `format`, or in the format their start shows (`LogFormat.detect`).
  /// Throws when the format cannot be read or lacks a field the options need. With
  /// `readingTimes`, the visits' times are read (when the format has them) for
  /// `Partial.timeRange`, whatever the options.
  public static func analyze(
    _ bytes: UnsafeRawBufferPointer, options: AnalysisOptions, format: LogFormat? = nil,
    readingTimes: Bool = false, chunks: Int = ProcessInfo.processInfo.activeProcessorCount
  ) throws(AnalysisOptionError) -> Partial {
    let format = format ?? LogFormat.detect(bytes)
    var partial = analyze(
      bytes, options: options,
      layout: try layout(format, options, sample: bytes),
      readingTimes: readingTimes, chunks: chunks)
    partial.formatName = format.name
    return partial
  }

  /// The layout that reads lines of `format` (or of the format `sample` shows) for `options`:
  /// nil for the fastest path.
  package static func layout(
    _ format: LogFormat?, _ options: AnalysisOptions, sample: UnsafeRawBufferPointer
  )
    throws(AnalysisOptionError) -> LineLayout?
  {
    let format = format ?? LogFormat.detect(sample)
    if format.isCombinedOrCommon && !options.needsRecord { return nil }
    let layout = try LineLayout(format, sample: sample)
    try layout.check(options)
    return layout
  }

  /// Analyses `bytes` with `layout`. A W3C log is read in one piece, as a `#Fields:` line
  /// changes how the lines after it read.
  package static func analyze(
    _ bytes: UnsafeRawBufferPointer, options: AnalysisOptions, layout: LineLayout?,
    readingTimes: Bool = false, chunks: Int
  ) -> Partial {
    var chunks = chunks
    if case .w3c = layout { chunks = 1 }
    let bounds = chunkBounds(bytes, count: max(1, chunks))
    // Safe: the chunks only read `bytes`, which outlives concurrentPerform, and each reads
    // its own range.
    nonisolated(unsafe) let shared = bytes
    let results = concurrentMap(bounds.count) { index in
      Partial.reading(options: options, layout: layout, readingTimes: readingTimes) { read in
        read(UnsafeRawBufferPointer(rebasing: shared[bounds[index]]))
      }
    }
    return merged(results, options: options)
  }

  /// Analyses what `read` returns until it returns no bytes, `blockSize` bytes of whole lines
  /// at a time; only one block and the start of the unfinished line after it are in memory
  /// (see `LineAssembler`). The format is found in the first block when not given.
  public static func analyze(
    reading read: () throws -> Data?, options: AnalysisOptions, format: LogFormat? = nil,
    readingTimes: Bool = false, blockSize: Int = Tuning.streamBlockSize
  ) throws -> Partial {
    var fields: Data?
    return try analyze(
      reading: read, options: options, format: format, readingTimes: readingTimes,
      blockSize: blockSize, fields: &fields)
  }

  /// `analyze(reading:options:format:readingTimes:blockSize:)` of a log read from within:
  /// `fields` is the W3C `#Fields:` line in force where the reading starts (nil at a log's
  /// start, and for other formats), and becomes the one in force where it ends.
  package static func analyze(
    reading read: () throws -> Data?, options: AnalysisOptions, format: LogFormat?,
    readingTimes: Bool, blockSize: Int = Tuning.streamBlockSize, fields: inout Data?
  ) throws -> Partial {
    try analyze(
      reading: read, options: options, format: format, readingTimes: readingTimes,
      blockSize: blockSize, chunks: ProcessInfo.processInfo.activeProcessorCount,
      fields: &fields)
  }

  /// `analyze(reading:options:format:readingTimes:blockSize:fields:)` with each block cut
  /// into about `chunks` pieces analysed in parallel.
  package static func analyze(
    reading read: () throws -> Data?, options: AnalysisOptions, format: LogFormat?,
    readingTimes: Bool, blockSize: Int = Tuning.streamBlockSize, chunks: Int,
    fields: inout Data?
  ) throws -> Partial {
    var total = Partial(options: options)
    var gathered = Data()
    var layout: LineLayout??
    var resolved = format
    var inForce = fields
    func analyzeBlock(_ block: Data) throws {
      try block.withUnsafeBytes { bytes in
        if layout == nil {
          resolved = resolved ?? LogFormat.detect(bytes)
          if case .w3c = resolved, let inForce {
            layout = try inForce.withUnsafeBytes { try Self.layout(resolved, options, sample: $0) }
          } else {
            layout = try Self.layout(resolved, options, sample: bytes)
          }
        }
        var partial = analyze(
          bytes, options: options, layout: layout!, readingTimes: readingTimes,
          chunks: chunks)
        partial.formatName = resolved?.name
        total.append(partial)
        // The last `#Fields:` line of a W3C block says how the next block reads.
        if case .w3c = layout!, let (header, line) = lastW3CHeader(bytes) {
          layout = .some(.w3c(header))
          inForce = line
        }
      }
    }
    var lines = LineAssembler()
    func gather(_ whole: UnsafeRawBufferPointer) throws {
      gathered.append(contentsOf: whole)
      if gathered.count >= blockSize {
        try analyzeBlock(gathered)
        gathered.removeAll(keepingCapacity: true)
      }
    }
    while let block = try read(), !block.isEmpty {
      try block.withUnsafeBytes { try lines.append($0, gather) }
    }
    try lines.finish(gather)
    if !gathered.isEmpty { try analyzeBlock(gathered) }
    fields = inForce
    return total
  }

  /// The last usable `#Fields:` line of `bytes`, read and as it is.
  private static func lastW3CHeader(_ bytes: UnsafeRawBufferPointer) -> (W3CLayout, Data)? {
    var found: (W3CLayout, Data)?
    let scanner = ByteScanner(bytes: bytes)
    var start = 0
    while start < bytes.count {
      let end = scanner.newline(from: start)
      if bytes[start] == UInt8(ascii: "#"),
        let header = W3CLayout(header: UnsafeRawBufferPointer(rebasing: bytes[start..<end])),
        header.isUsable
      {
        found = (header, Data(bytes[start..<end]))
      }
      start = end + 1
    }
    return found
  }

  /// The partials appended in order; the first one is the start, not copied into an empty one.
  package static func merged(_ partials: consuming [Partial], options: AnalysisOptions) -> Partial {
    // Taken out one at a time, so that each part's tables are freed as they merge.
    partials.reverse()
    guard var total = partials.popLast() else { return Partial(options: options) }
    while let partial = partials.popLast() { total.append(releasing: partial) }
    return total
  }

  /// About `count` ranges of whole lines covering `bytes`.
  static func chunkBounds(_ bytes: UnsafeRawBufferPointer, count: Int) -> [Range<Int>] {
    var bounds: [Range<Int>] = []
    var start = 0
    let size = max(1, bytes.count / count)
    while start < bytes.count {
      var end = min(bytes.count, start + size)
      while end < bytes.count && bytes[end - 1] != UInt8(ascii: "\n") { end += 1 }
      bounds.append(start..<end)
      start = end
    }
    return bounds
  }
}
