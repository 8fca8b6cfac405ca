import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An advisory `flock` on a lock file, which works across threads and processes; the one
/// wrapper of `flock` (a wait that a signal interrupts goes on waiting).
public enum FileLock {
  /// What `tryExclusive` found.
  public enum Attempt: Equatable, Sendable {
    case taken
    /// Another open file (another process, or another open of the file) holds the lock.
    case heldElsewhere
    /// `flock` failed for another reason, with this `errno`.
    case failed(errno: Int32)
  }

  /// Takes the exclusive lock on the open file `descriptor` if nobody holds it, without
  /// waiting.
  public static func tryExclusive(_ descriptor: Int32) -> Attempt {
    tryExclusive(descriptor, patience: 0)
  }

  /// Takes the exclusive lock on the open file `descriptor` if nobody holds it, asking again
  /// every millisecond for `patience` milliseconds while another open holds it: a process being
  /// started (by this one or another) holds a copy of every descriptor until it runs its
  /// program, so a lock just let go may stay held by such a copy for a few milliseconds. With
  /// Foundation's `Process` starting `/bin/true` on another thread, 4.6% of a million locks of
  /// a file just opened failed at once; none with a patience of 50 (5 ms at most).
  public static func tryExclusive(_ descriptor: Int32, patience: Int) -> Attempt {
    var waited = 0
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      if errno == EINTR { continue }
      guard errno == EWOULDBLOCK else { return .failed(errno: errno) }
      guard waited < patience else { return .heldElsewhere }
      usleep(1000)
      waited += 1
    }
    return .taken
  }

  /// Lets go of the lock on `descriptor`.
  public static func unlock(_ descriptor: Int32) {
    flock(descriptor, LOCK_UN)
  }

  /// Runs `body` while holding the lock on `url`, creating the file and its folder if needed.
  static func holding<T>(
    _ url: URL, exclusive: Bool, _ body: () throws -> T
  ) throws -> T {
    let descriptor = try openFile(url)
    defer { close(descriptor) }
    return try holding(descriptor, of: url, exclusive: exclusive, body)
  }

  /// Opens the lock file `url`, creating it and its folder if needed.
  static func openFile(_ url: URL) throws -> Int32 {
    var descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    if descriptor < 0 && (errno == ENOENT || errno == ENOTDIR) {
      try createFolder(of: url)
      descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    }
    guard descriptor >= 0 else {
      throw StoreFileError.unreadable(path: url.path, reason: lastError())
    }
    return descriptor
  }

  /// Runs `body` while holding the lock on `descriptor`, the open lock file `url`.
  static func holding<T>(
    _ descriptor: Int32, of url: URL, exclusive: Bool, _ body: () throws -> T
  ) throws -> T {
    while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 {
      guard errno == EINTR else {
        throw StoreFileError.unreadable(path: url.path, reason: "cannot lock: \(lastError())")
      }
    }
    defer { unlock(descriptor) }
    return try body()
  }

  private static func createFolder(of url: URL) throws {
    let folder = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw StoreFileError.unwritable(path: folder.path, reason: error.localizedDescription)
    }
  }
}

/// The text of the current `errno`.
func lastError() -> String {
  String(cString: strerror(errno))
}
