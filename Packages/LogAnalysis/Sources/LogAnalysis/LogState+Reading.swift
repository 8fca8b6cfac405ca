import Foundation

extension LogState {
  /// How many of a log's first bytes tell its file.
  static let headLength = 256

  /// What a run read of its log: the analysis of the new lines, where it stopped, the bytes it
  /// read, and what it could not read (said to the user).
  public struct Reading: Sendable {
    public var partial: Partial
    public var position: Position
    public var bytes: Int
    public var notes: [String]
  }

  /// Reads the lines of the log at `path` written since `position` (all of them without
  /// one), up to its last complete line: after a rotation, the rest of the old file first,
  /// found as `path.1` (renamed, or copied before the log was truncated) or `path.1.gz`
  /// (compressed), then the new file from its start. A line being written is left for the
  /// next run.
  public static func readNew(
    _ path: String, since position: Position?, options: AnalysisOptions, format: LogFormat?
  ) throws(LogInputError) -> Reading {
    do {
      return try readingNew(path, since: position, options: options, format: format)
    } catch let error as LogInputError {
      throw error
    } catch {
      throw LogInputError("cannot read \(path): \(error.localizedDescription)")
    }
  }

  private static func readingNew(
    _ path: String, since position: Position?, options: AnalysisOptions, format: LogFormat?
  ) throws -> Reading {
    guard let current = LogFileStatus(path) else { throw LogInputError("\(path): no such file") }
    guard !current.isGzip else {
      throw LogInputError("\(path) is gzip-compressed: --state follows the log being written")
    }
    // Found by the log's start, which a run that starts within it would not see.
    let format = format ?? current.head.withUnsafeBytes { LogFormat.detect($0) }
    if case .w3c = format {
      throw LogInputError("\(path): --state reads logs whose lines stand alone, not W3C logs")
    }
    var total = Partial(options: options)
    var notes: [String] = []
    var bytes = 0
    var start = 0
    if let position {
      let sameFile =
        current.device == position.device && current.inode == position.inode
        && current.size >= position.offset && current.head.starts(with: position.head)
      if sameFile {
        start = position.offset
      } else if let rotated = rotatedFile(of: path, since: position) {
        let (rest, read) = try analyze(
          rotated.path, from: position.offset, gzip: rotated.isGzip,
          options: options, format: format)
        total.append(rest)
        bytes += read
      } else {
        notes.append(
          "\(path) was rotated, and its old file is neither \(path).1 nor \(path).1.gz: "
            + "the lines written to it since the last run are not counted")
      }
    }
    let (new, read) = try analyzeLines(of: path, from: start, options: options, format: format)
    total.append(new)
    bytes += read
    let moved = Position(
      path: path, device: current.device, inode: current.inode, offset: start + read,
      head: current.head)
    return Reading(partial: total, position: moved, bytes: bytes, notes: notes)
  }

  /// The rotated copy of the log that `position` read: `path.1`, the same file renamed or a
  /// copy of it (its first bytes), or `path.1.gz`, the same text compressed.
  private static func rotatedFile(of path: String, since position: Position) -> LogFileStatus? {
    for candidate in [path + ".1", path + ".1.gz"] {
      guard let status = LogFileStatus(candidate) else { continue }
      let renamed = status.device == position.device && status.inode == position.inode
      if renamed || status.head.starts(with: position.head) { return status }
    }
    return nil
  }

  /// The analysis of the whole lines of the plain file at `path` from byte `offset`, and the
  /// bytes read: in parallel, as a file given to `analyze` is read. A line being written is
  /// left for later.
  private static func analyzeLines(
    of path: String, from offset: Int, options: AnalysisOptions, format: LogFormat?
  ) throws -> (Partial, Int) {
    let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    defer { try? file.close() }
    // Read up to where the file ended when opened; when it was cut since, nothing now.
    let size = Int(try file.seekToEnd())
    let end = try LogFile.endOfLastLine(file.fileDescriptor, in: offset..<max(offset, size))
    let partial = try LogAnalyzer.analyze(
      file, from: offset, to: end, options: options, format: format, readingTimes: true)
    return (partial, end - offset)
  }

  /// The analysis of the log text of the file at `path` from byte `offset` of its text (its
  /// inflated text when `gzip`) to its end, and the bytes of text read: the rest of a rotated
  /// log, whose last line is whole.
  private static func analyze(
    _ path: String, from offset: Int, gzip: Bool, options: AnalysisOptions, format: LogFormat?
  ) throws -> (Partial, Int) {
    let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    defer { try? file.close() }
    var next: () throws -> Data?
    if gzip {
      let reader = try GzipReader(reading: { try file.read(upToCount: 4 << 20) })
      next = reader.next
    } else {
      try file.seek(toOffset: UInt64(offset))
      next = { try file.read(upToCount: 4 << 20) }
    }
    var skip = gzip ? offset : 0
    var read = 0
    let text = { () throws -> Data? in
      while var block = try next(), !block.isEmpty {
        if skip > 0 {
          let dropped = min(skip, block.count)
          block.removeFirst(dropped)
          skip -= dropped
          if block.isEmpty { continue }
        }
        read += block.count
        return block
      }
      return nil
    }
    let partial = try LogAnalyzer.analyze(
      reading: text, options: options, format: format, readingTimes: true)
    return (partial, read)
  }
}

/// A log file's identity, size, kind and first bytes of text.
struct LogFileStatus {
  var path: String
  var device: UInt64
  var inode: UInt64
  var size: Int
  var isGzip: Bool
  /// The first `LogState.headLength` bytes of its text (inflated when gzip).
  var head: Data

  init?(_ path: String) {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      attributes[.type] as? FileAttributeType == .typeRegular,
      let file = FileHandle(forReadingAtPath: path)
    else { return nil }
    defer { try? file.close() }
    self.path = path
    device = (attributes[.deviceIdentifier] as? NSNumber)?.uint64Value ?? 0
    inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
    size = (attributes[.size] as? NSNumber)?.intValue ?? 0
    let start = (try? file.read(upToCount: LogState.headLength)) ?? Data()
    isGzip = start.starts(with: LogInput.gzipMagic)
    if isGzip {
      try? file.seek(toOffset: 0)
      let reader = try? GzipReader(reading: { try file.read(upToCount: 64 << 10) })
      var text = Data()
      while text.count < LogState.headLength, let block = try? reader?.next() {
        text.append(block)
      }
      head = text.prefix(LogState.headLength)
    } else {
      head = start
    }
  }
}
