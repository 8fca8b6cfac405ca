import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file of lines that only grows, shared by threads and processes: each change appends a
/// few lines, so its cost does not grow with the file, and each reader reads only what was
/// appended since it last looked. The owner replays the lines into its own state and, when
/// the file holds much more than that state, replaces it with a compacted copy.
///
/// Every transaction holds an exclusive `flock` on `<file>.lock`; both files stay open
/// between transactions, the journal until another file takes its name. Appends are written before
/// the lock is let go, so a process killed at any point loses nothing that another process
/// or a restart could have seen; they reach the disk (`fsync`) at most a second apart,
/// compactions at once (as `AtomicFile`). A last line without its newline was cut by a crash
/// during its write, before its writer could go on: it is removed. The file's first line names
/// its generation (`#journal <random>`), renewed by each compaction, so that a reader never
/// takes a new file for the one it read because the system gave it the old inode number.
public final class Journal: Sendable {
  /// What a transaction writes.
  public enum Write: Sendable {
    case append([Data])
    /// The whole journal anew, atomically.
    case replace([Data])
  }

  /// What a transaction sees before it writes.
  public struct Catchup: Sendable {
    /// The lines written since this process last looked (every line when `fromStart`).
    public var lines: [Data]
    /// The file is read from its start (first use, or another process replaced it): the
    /// owner's state must be rebuilt from `lines` alone.
    public var fromStart: Bool
    /// The lines the file holds now, before this transaction's write.
    public var lineCount: Int
    /// The number in the file of the first of `lines` (from 1), to name a line.
    public var firstLineNumber: Int
  }

  private struct Position {
    var device: UInt64 = 0
    var inode: UInt64 = 0
    /// The generation line the file started with when it was read from its start.
    var generation: [UInt8] = []
    var offset: Int = 0
    /// The lines read or written, the generation line aside.
    var lineCount = 0
    var lastSync = ContinuousClock.now
  }

  private static let generationPrefix = Array("#journal ".utf8)

  /// A new generation line, without its newline.
  private static func newGeneration() -> [UInt8] {
    generationPrefix + Array(String(UInt64.random(in: 0...UInt64.max), radix: 16).utf8)
  }

  /// The files a journal keeps open between transactions, so that a transaction opens none.
  private struct Files {
    var position = Position()
    /// The lock file, or -1.
    var lock: Int32 = -1
    /// The journal file as opened, or -1; reopened when another file took its name.
    var file: Int32 = -1
  }

  public let url: URL
  private let path: String
  private let lockURL: URL
  private let state = Locked(Files())

  public init(url: URL) {
    self.url = url
    path = url.path
    lockURL = url.appendingPathExtension("lock")
  }

  deinit {
    state.locked { files in
      if files.lock >= 0 { close(files.lock) }
      if files.file >= 0 { close(files.file) }
    }
  }

  /// Runs `body` under the lock with what was appended since this process last looked, and
  /// writes what it returns. Nothing is written when `body` throws, and the next transaction
  /// then reads the file from its start, so that the owner's state is rebuilt.
  public func transaction<T>(_ body: (Catchup) throws -> (Write, T)) throws -> T {
    try state.locked { files in
      if files.lock < 0 { files.lock = try FileLock.openFile(lockURL) }
      return try FileLock.holding(files.lock, of: lockURL, exclusive: true) {
        do {
          let (descriptor, status) = try journalFile(&files)
          return try write(descriptor, status, &files.position, body)
        } catch {
          // The owner's state may hold what was not written: it is rebuilt from the file.
          files.position = Position()
          throw error
        }
      }
    }
  }

  /// Runs `body` without taking the file's lock when nothing was written to the file since
  /// this process last looked (one `fstat`), so that a read of the owner's state is as if it
  /// were a transaction that read nothing new; nil, without running `body`, otherwise. A
  /// change of the file needs the lock, and appends only whole lines: a file of the size it
  /// had, still under its name, holds what it held.
  public func ifUnchanged<T>(_ body: () throws -> T) rethrows -> T? {
    try state.locked { files in
      var status = stat()
      guard files.file >= 0, files.position.offset > 0, fstat(files.file, &status) == 0,
        status.st_nlink > 0, Int(status.st_size) == files.position.offset
      else { return nil }
      return try body()
    }
  }

  /// The journal file open, with its status: the one opened before while it still has a name
  /// (one that another file took the name of, or that was removed, has none), else the file
  /// the name now has (created when there is none). One `fstat` when nothing changed.
  private func journalFile(_ files: inout Files) throws -> (Int32, stat) {
    var status = stat()
    if files.file >= 0 {
      if fstat(files.file, &status) == 0, status.st_nlink > 0 { return (files.file, status) }
      close(files.file)
      files.file = -1
    }
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw StoreFileError.unreadable(path: path, reason: lastError())
    }
    guard fstat(descriptor, &status) == 0 else {
      let reason = lastError()
      close(descriptor)
      throw StoreFileError.unreadable(path: path, reason: reason)
    }
    files.file = descriptor
    return (descriptor, status)
  }

  /// Catches up, runs `body` and writes what it returns.
  private func write<T>(
    _ descriptor: Int32, _ status: stat, _ position: inout Position,
    _ body: (Catchup) throws -> (Write, T)
  ) throws -> T {
    let catchup = try self.catchUp(descriptor, status, &position)
    let (write, result) = try body(catchup)
    switch write {
    case .append(let lines) where !lines.isEmpty:
      if position.offset == 0 {
        // A new file starts with its generation.
        position.generation = Self.newGeneration()
        try append([Data(position.generation)], to: descriptor, &position)
        position.lineCount = 0
      }
      try append(lines, to: descriptor, &position)
    case .append:
      break
    case .replace(let lines):
      let generation = Self.newGeneration()
      try AtomicFile.replace(url, with: Self.joined([Data(generation)] + lines))
      var status = stat()
      guard stat(path, &status) == 0 else {
        throw StoreFileError.unreadable(path: path, reason: lastError())
      }
      position = Position(
        device: UInt64(status.st_dev), inode: UInt64(status.st_ino), generation: generation,
        offset: Int(status.st_size), lineCount: lines.count, lastSync: .now)
    }
    return result
  }

  /// Reads what was appended since `position`, from the start when the file (of `status`) is
  /// not the one `position` describes; cuts a last line that lacks its newline.
  private func catchUp(_ descriptor: Int32, _ status: stat, _ position: inout Position) throws
    -> Catchup
  {
    let size = Int(status.st_size)
    let generation = try read(descriptor, at: 0, count: position.generation.count)
    let sameFile =
      UInt64(status.st_dev) == position.device && UInt64(status.st_ino) == position.inode
      && size >= position.offset && generation == position.generation
    if !sameFile {
      position = Position(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }
    let bytes = try read(descriptor, at: position.offset, count: size - position.offset)
    let whole = (bytes.lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
    if whole < bytes.count {
      guard ftruncate(descriptor, off_t(position.offset + whole)) == 0 else {
        throw StoreFileError.unwritable(
          path: path, reason: "cannot cut a torn line: \(lastError())")
      }
    }
    var lines = bytes[..<whole].split(separator: UInt8(ascii: "\n")).map { Data($0) }
    if position.offset == 0, let first = lines.first, first.starts(with: Self.generationPrefix) {
      position.generation = Array(first)
      lines.removeFirst()
    }
    let firstLineNumber = position.lineCount + (position.generation.isEmpty ? 1 : 2)
    position.offset += whole
    position.lineCount += lines.count
    return Catchup(
      lines: lines, fromStart: !sameFile, lineCount: position.lineCount,
      firstLineNumber: firstLineNumber)
  }

  /// `count` bytes of the file from `offset` (fewer at its end).
  private func read(_ descriptor: Int32, at offset: Int, count: Int) throws -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let read = bytes.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done))
      }
      if read < 0 && errno == EINTR { continue }
      guard read >= 0 else { throw StoreFileError.unreadable(path: path, reason: lastError()) }
      if read == 0 { break }
      done += read
    }
    return Array(bytes[..<done])
  }

  /// Appends `lines`; on a failure (a full disk) the file is cut back to where it was.
  private func append(_ lines: [Data], to descriptor: Int32, _ position: inout Position) throws {
    let data = Self.joined(lines)
    guard FileWrite.all(data, to: descriptor, at: position.offset) else {
      let reason = lastError()
      _ = ftruncate(descriptor, off_t(position.offset))
      throw StoreFileError.unwritable(path: path, reason: reason)
    }
    position.offset += data.count
    position.lineCount += lines.count
    if position.lastSync.duration(to: .now) >= .seconds(1) {
      _ = fsync(descriptor)
      position.lastSync = .now
    }
  }

  private static func joined(_ lines: [Data]) -> Data {
    var data = Data(capacity: lines.reduce(0) { $0 + $1.count + 1 })
    for line in lines {
      data.append(line)
      data.append(UInt8(ascii: "\n"))
    }
    return data
  }
}

/// A value behind a lock, held across a transaction (`Synchronization.Mutex` cannot return
/// the non-`Sendable` result of a generic throwing body).
///
/// `@unchecked Sendable`: `value` is only touched inside `locked`, under `lock`.
private final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  func locked<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
