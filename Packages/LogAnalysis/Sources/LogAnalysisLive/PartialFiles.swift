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
    var sources: [(path: String, source: PartialSource)] = []
    let batch = max(1, ProcessInfo.processInfo.activeProcessorCount)
    for first in stride(from: 0, to: paths.count, by: batch) {
      let group = Array(paths[first..<min(first + batch, paths.count)])
      let loaded = concurrentMap(group.count) { index in load(group[index]) }
      for (path, result) in zip(group, loaded) {
        let (partial, size) = try result.get()
        bytes += size
        try add(partial, from: path, to: &total, first: paths[0], sources: &sources)
      }
    }
    guard let total else { throw PartialFileError(description: "no partial result to merge") }
    return (total, bytes)
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

  /// Appends `partial`, read from `path`, to `total`, after checking that it may be.
  private static func add(
    _ partial: Partial, from path: String, to total: inout Partial?, first: String,
    sources: inout [(path: String, source: PartialSource)]
  ) throws(PartialFileError) {
    guard total == nil || total!.options == partial.options else {
      throw PartialFileError(
        description: "\(path) was analysed with other options than \(first)")
    }
    if let source = partial.source {
      for (earlier, seen) in sources {
        if let clash = source.clash(with: seen) {
          throw PartialFileError(
            description: "\(earlier) and \(path) are \(clash): merging would count it twice")
        }
      }
      sources.append((path, source))
    }
    guard (total?.lines ?? 0) + partial.lines <= Partial.maxLines else {
      throw PartialFileError(
        description: "\(path): the partial results hold more than 2^48 lines together")
    }
    if total == nil { total = partial } else { total!.append(partial) }
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
