import Foundation
import LogAnalysis

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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

    public init(partial: Partial, position: Position, bytes: Int, notes: [String]) {
      self.partial = partial
      self.position = position
      self.bytes = bytes
      self.notes = notes
    }
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
    guard let current = LogFileStatus(path) else {
      var status = stat()
      guard stat(path, &status) == 0 else { throw LogInputError("\(path): no such file") }
      throw LogInputError(
        "\(path) is not a regular file (a FIFO, a folder?): a log is read as a file")
    }
    guard !current.isGzip else {
      throw LogInputError("\(path) is gzip-compressed: --state follows the log being written")
    }
    // Found by the log's start, which a run that starts within it would not see.
    let formatOf = { (file: LogFileStatus) in
      format ?? file.head.withUnsafeBytes { LogFormat.detect($0) }
    }
    var total = Partial(options: options)
    var notes: [String] = []
    var bytes = 0
    var start = 0
    var fields: Data?
    if let position {
      let sameFile =
        current.isFile(of: position) && current.size >= position.offset
        && current.head.starts(with: position.head)
      if sameFile {
        start = position.offset
        fields = position.fields
      } else if let rotated = rotatedFile(of: path, since: position) {
        var oldFields = position.fields
        let (rest, read) = try analyze(
          rotated.path, from: position.offset, gzip: rotated.isGzip,
          options: options, format: formatOf(rotated), fields: &oldFields)
        total.append(rest)
        bytes += read
      } else {
        notes.append(
          "\(path) was rotated, and its old file is neither \(path).1 nor \(path).1.gz: "
            + "the lines written to it since the last run are not counted")
      }
    }
    let (new, read) = try analyzeLines(
      of: path, from: start, options: options, format: formatOf(current), fields: &fields)
    total.append(new)
    bytes += read
    var moved = Position(
      path: path, device: current.device, inode: current.inode, offset: start + read,
      head: current.head)
    moved.fields = fields
    return Reading(partial: total, position: moved, bytes: bytes, notes: notes)
  }

  /// The rotated copy of the log that `position` read: `path.1`, the same file renamed or a
  /// copy of it (its first bytes), or `path.1.gz`, the same text compressed.
  private static func rotatedFile(of path: String, since position: Position) -> LogFileStatus? {
    for candidate in [path + ".1", path + ".1.gz"] {
      guard let status = LogFileStatus(candidate) else { continue }
      if status.isFile(of: position) || status.head.starts(with: position.head) { return status }
    }
    return nil
  }

  /// The analysis of the whole lines of the plain file at `path` from byte `offset`, and the
  /// bytes read: in parallel, as a file given to `analyze` is read, or in a W3C log, in order
  /// from the `#Fields:` line in force at `offset` (`fields`, which becomes the one in force
  /// at the end). A line being written is left for later.
  private static func analyzeLines(
    of path: String, from offset: Int, options: AnalysisOptions, format: LogFormat,
    fields: inout Data?
  ) throws -> (Partial, Int) {
    let file = try LogFileStatus.open(path)
    defer { try? file.close() }
    // Read up to where the file ended when opened; when it was cut since, nothing now.
    let size = Int(try file.seekToEnd())
    let end = try LogFile.endOfLastLine(file.fileDescriptor, in: offset..<max(offset, size))
    if case .w3c = format {
      try file.seek(toOffset: UInt64(offset))
      var left = end - offset
      let partial = try LogAnalyzer.analyze(
        reading: {
          let block = try file.read(upToCount: min(left, Tuning.w3cBlockSize)) ?? Data()
          left -= block.count
          return block
        }, options: options, format: format, readingTimes: true, fields: &fields)
      return (partial, end - offset)
    }
    let partial = try LogAnalyzer.analyze(
      file, from: offset, to: end, options: options, format: format, readingTimes: true)
    return (partial, end - offset)
  }

  /// The analysis of the log text of the file at `path` from byte `offset` of its text (its
  /// inflated text when `gzip`) to its end, and the bytes of text read: the rest of a rotated
  /// log, whose last line is whole.
  private static func analyze(
    _ path: String, from offset: Int, gzip: Bool, options: AnalysisOptions, format: LogFormat,
    fields: inout Data?
  ) throws -> (Partial, Int) {
    let file = try LogFileStatus.open(path)
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
      reading: text, options: options, format: format, readingTimes: true, fields: &fields)
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

  /// Whether this is the file that `position` read, by device and inode. Versions before
  /// 3.2.0 saved device 0 (they did not read it): their inode alone tells.
  func isFile(of position: LogState.Position) -> Bool {
    (position.device == 0 || device == position.device) && inode == position.inode
  }

  /// The regular file at `path` opened for reading, never waiting for a FIFO's writer (a log
  /// replaced by a FIFO would hold the reader in `open`, deaf to Ctrl-C); throws when there is
  /// none, or something else is there.
  static func open(_ path: String) throws -> FileHandle {
    let descriptor = openForReading(path)
    guard descriptor >= 0 else {
      throw LogInputError("cannot read \(path): \(String(cString: strerror(errno)))")
    }
    let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      throw LogInputError(
        "\(path) is not a regular file (a FIFO, a folder?): a log is read as a file")
    }
    return file
  }

  init?(_ path: String) {
    guard let file = try? Self.open(path) else { return nil }
    defer { try? file.close() }
    // The file opened, not the path again, which a rotation may have moved on.
    var status = stat()
    guard fstat(file.fileDescriptor, &status) == 0 else { return nil }
    self.path = path
    device = UInt64(status.st_dev)
    inode = UInt64(status.st_ino)
    size = Int(status.st_size)
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

/// `open(2)` for reading, never waiting for a FIFO's writer: a descriptor, or -1 with `errno`.
private func openForReading(_ path: String) -> Int32 {
  open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
}
