import Foundation
import Synchronization

/// Analyses access logs: every line is read, lines are cut into chunks analysed on every
/// core, and the chunks' partial results are merged in order.
public enum LogAnalyzer {
  /// Analyses `bytes`, cut at line boundaries into about `chunks` pieces analysed in parallel.
  public static func analyze(
    _ bytes: UnsafeRawBufferPointer, options: AnalysisOptions,
    chunks: Int = ProcessInfo.processInfo.activeProcessorCount
  ) -> Partial {
    let bounds = chunkBounds(bytes, count: max(1, chunks))
    let results = Mutex([Partial?](repeating: nil, count: bounds.count))
    // Safe: the chunks only read `bytes`, which outlives concurrentPerform, and each reads
    // its own range.
    nonisolated(unsafe) let shared = bytes
    DispatchQueue.concurrentPerform(iterations: bounds.count) { index in
      var partial = Partial(options: options)
      partial.read(UnsafeRawBufferPointer(rebasing: shared[bounds[index]]))
      results.withLock { $0[index] = partial }
    }
    var total = Partial(options: options)
    for partial in results.withLock({ $0 }) { total.append(partial!) }
    return total
  }

  /// Analyses the file at `url`, mapped into memory.
  public static func analyze(fileAt url: URL, options: AnalysisOptions) throws -> Partial {
    let data = try Data(contentsOf: url, options: .alwaysMapped)
    return data.withUnsafeBytes { analyze($0, options: options) }
  }

  /// Analyses what `read` returns until it returns no bytes, `blockSize` bytes at a time; only
  /// one block and the unfinished line after it are in memory.
  public static func analyze(
    reading read: () throws -> Data?, options: AnalysisOptions, blockSize: Int = 32 << 20
  ) rethrows -> Partial {
    var total = Partial(options: options)
    var carry = Data()
    while let block = try read(), !block.isEmpty {
      carry.append(block)
      guard carry.count >= blockSize, let lastNewline = carry.lastIndex(of: UInt8(ascii: "\n"))
      else { continue }
      let complete = carry[..<(lastNewline + 1)]
      total.append(complete.withUnsafeBytes { analyze($0, options: options) })
      carry = Data(carry[(lastNewline + 1)...])
    }
    if !carry.isEmpty { total.append(carry.withUnsafeBytes { analyze($0, options: options) }) }
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
