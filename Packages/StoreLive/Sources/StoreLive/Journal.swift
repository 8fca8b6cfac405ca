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
/// Every transaction holds an exclusive `flock` on `<file>.lock`. Appends are written before
/// the lock is let go, so a process killed at any point loses nothing that another process
/// or a restart could have seen; they reach the disk (`fsync`) at most a second apart,
/// compactions at once (as `AtomicFile`). A last line without its newline was cut by a crash
/// during its write, before its writer could go on: it is removed.
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
  }

  private struct Position {
    var device: UInt64 = 0
    var inode: UInt64 = 0
    var offset: Int = 0
    var lineCount = 0
    var lastSync = ContinuousClock.now
  }

  public let url: URL
  private let position = Locked(Position())

  public init(url: URL) {
    self.url = url
  }

  /// Runs `body` under the lock with what was appended since this process last looked, and
  /// writes what it returns. Nothing is written when `body` throws, and the next transaction
  /// then reads the file from its start, so that the owner's state is rebuilt.
  public func transaction<T>(_ body: (Catchup) throws -> (Write, T)) throws -> T {
    try position.locked { position in
      try FileLock.holding(url.appendingPathExtension("lock"), exclusive: true) {
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
          throw StoreFileError.unreadable(path: url.path, reason: lastError())
        }
        defer { close(descriptor) }
        do {
          return try write(descriptor, &position, body)
        } catch {
          // The owner's state may hold what was not written: it is rebuilt from the file.
          position = Position()
          throw error
        }
      }
    }
  }

  /// Catches up, runs `body` and writes what it returns.
  private func write<T>(
    _ descriptor: Int32, _ position: inout Position, _ body: (Catchup) throws -> (Write, T)
  ) throws -> T {
    let catchup = try self.catchUp(descriptor, &position)
    let (write, result) = try body(catchup)
    switch write {
    case .append(let lines) where !lines.isEmpty:
      try append(lines, to: descriptor, &position)
    case .append:
      break
    case .replace(let lines):
      try AtomicFile.replace(url, with: Self.joined(lines))
      var status = stat()
      guard stat(url.path, &status) == 0 else {
        throw StoreFileError.unreadable(path: url.path, reason: lastError())
      }
      position = Position(
        device: UInt64(status.st_dev), inode: UInt64(status.st_ino),
        offset: Int(status.st_size), lineCount: lines.count, lastSync: .now)
    }
    return result
  }

  /// Reads what was appended since `position`, from the start when the file is not the one
  /// `position` describes; cuts a last line that lacks its newline.
  private func catchUp(_ descriptor: Int32, _ position: inout Position) throws -> Catchup {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw StoreFileError.unreadable(path: url.path, reason: lastError())
    }
    let size = Int(status.st_size)
    let sameFile =
      UInt64(status.st_dev) == position.device && UInt64(status.st_ino) == position.inode
      && size >= position.offset
    if !sameFile {
      position = Position(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }
    var bytes = [UInt8](repeating: 0, count: size - position.offset)
    var read = 0
    while read < bytes.count {
      let count = bytes.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress! + read, $0.count - read, off_t(position.offset + read))
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else {
        throw StoreFileError.unreadable(
          path: url.path, reason: count < 0 ? lastError() : "cut short")
      }
      read += count
    }
    let whole = (bytes.lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
    if whole < bytes.count {
      guard ftruncate(descriptor, off_t(position.offset + whole)) == 0 else {
        throw StoreFileError.unwritable(
          path: url.path, reason: "cannot cut a torn line: \(lastError())")
      }
    }
    let lines = bytes[..<whole].split(separator: UInt8(ascii: "\n")).map { Data($0) }
    position.offset += whole
    position.lineCount += lines.count
    return Catchup(lines: lines, fromStart: !sameFile, lineCount: position.lineCount)
  }

  /// Appends `lines`; on a failure (a full disk) the file is cut back to where it was.
  private func append(_ lines: [Data], to descriptor: Int32, _ position: inout Position) throws {
    let data = Self.joined(lines)
    let written = data.withUnsafeBytes { buffer -> Bool in
      var done = 0
      while done < buffer.count {
        let count = pwrite(
          descriptor, buffer.baseAddress! + done, buffer.count - done,
          off_t(position.offset + done))
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return false }
        done += count
      }
      return true
    }
    guard written else {
      let reason = lastError()
      _ = ftruncate(descriptor, off_t(position.offset))
      throw StoreFileError.unwritable(path: url.path, reason: reason)
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
