import Foundation
import LogAnalysis

/// Partial results on disk, as `fetcher analyze --partial-out` writes them.
public enum PartialFiles {
  /// The partial results in the files at `paths`, merged in the order given, and their total
  /// size in bytes. Throws `PartialFileError` naming the file for one that cannot be read, is
  /// no partial result, was made with other options than the first, or repeats a part already
  /// merged (the same run, or the same input and size). The files are read a core's worth at
  /// a time, each on a core of its own, and appended in order.
  public static func merge(_ paths: [String]) throws(PartialFileError) -> (Partial, Int) {
    var total: Partial?
    var bytes = 0
    var checks = Checks(first: paths.first ?? "")
    let batch = max(1, ProcessInfo.processInfo.activeProcessorCount)
    for first in stride(from: 0, to: paths.count, by: batch) {
      let group = Array(paths[first..<min(first + batch, paths.count)])
      let loaded = concurrentMap(group.count) { index in load(group[index]) }
      for (path, result) in zip(group, loaded) {
        let (partial, size) = try result.get()
        bytes += size
        try checks.admit(partial.options, partial.source, lines: partial.lines, from: path)
        if total == nil { total = partial } else { total!.append(partial) }
      }
    }
    guard let total else { throw PartialFileError(description: "no partial result to merge") }
    return (total, bytes)
  }

  /// The partial results in the files at `paths`, each written with its index (as
  /// `fetcher analyze --partial-out` writes them), joined in the order given where they lie
  /// (`JoinedResult`): what `merge` gives, without loading them. Nil when one of them has no
  /// index or does not read as one (`merge` then loads them, and says what is wrong), or when
  /// they are more than 16 (which load faster); throws as `merge` does for files that cannot
  /// be read or must not be merged.
  public static func join(_ paths: [String]) throws(PartialFileError) -> (JoinedResult, Int)? {
    guard paths.count <= Tuning.joinedPartsMax else { return nil }
    var parts: [IndexedPartial] = []
    var bytes = 0
    var checks = Checks(first: paths.first ?? "")
    for path in paths {
      let file = try map(path)
      guard let part = try? IndexedPartial(file: file) else { return nil }
      bytes += file.bytes.count
      let header = part.header
      try checks.admit(header.options, header.source, lines: header.lines, from: path)
      parts.append(part)
    }
    guard !parts.isEmpty else { throw PartialFileError(description: "no partial result to merge") }
    return (try? JoinedResult(parts: parts)).map { ($0, bytes) }
  }

  /// The partial result in the file at `path`, and the file's size.
  private static func load(_ path: String) -> Result<(Partial, Int), PartialFileError> {
    Result { () throws(PartialFileError) in
      let file = try map(path)
      do {
        return (try Partial(serialized: file.bytes), file.bytes.count)
      } catch {
        throw PartialFileError(description: "\(path): \(error)")
      }
    }
  }

  /// What the partial results merged so far must agree with.
  private struct Checks {
    let first: String
    var options: AnalysisOptions?
    var sources: [(path: String, source: PartialSource)] = []
    var lines = 0

    init(first: String) { self.first = first }

    /// Admits the partial result read from `path`, of `options` and `source` and `lines`
    /// lines, after checking that it may be merged with those before.
    mutating func admit(
      _ options: AnalysisOptions, _ source: PartialSource?, lines: Int, from path: String
    ) throws(PartialFileError) {
      guard self.options == nil || self.options == options else {
        throw PartialFileError(
          description: "\(path) was analysed with other options than \(first)")
      }
      self.options = options
      if let source {
        for (earlier, seen) in sources {
          if let clash = source.clash(with: seen) {
            throw PartialFileError(
              description: "\(earlier) and \(path) are \(clash): merging would count it twice")
          }
          // A file's lines go in the order they are in it, as its splits' sequences do.
          if let split = source.split, let before = seen.split, split.file == before.file,
            split.range.lowerBound < before.range.lowerBound
          {
            throw PartialFileError(
              description: "\(path) (\(source.input)) comes after \(earlier) (\(seen.input)): "
                + "give the splits of a file in the order of their byte ranges")
          }
        }
        sources.append((path, source))
      }
      guard self.lines + lines <= Partial.maxLines else {
        throw PartialFileError(
          description: "\(path): the partial results hold more than 2^48 lines together")
      }
      self.lines += lines
    }
  }

  /// The bytes of the regular file at `path`, mapped.
  private static func map(_ path: String) throws(PartialFileError) -> PinnedBytes {
    let type = try? FileManager.default.attributesOfItem(atPath: path)[.type]
    if let type, type as? FileAttributeType != .typeRegular {
      throw PartialFileError(description: "\(path): not a regular file, so not a partial result")
    }
    return try MappedFile.map(path: path)
  }
}
