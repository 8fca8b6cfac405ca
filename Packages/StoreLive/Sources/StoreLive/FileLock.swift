import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An advisory `flock` on a lock file, which works across threads and processes; the one
/// wrapper of `flock` (a wait that a signal interrupts goes on waiting), and the one way a
/// file to lock is opened (`open`, `acquire`): never through a symbolic link, never waiting for
/// a FIFO's writer, only a regular file with one name.
public enum FileLock {
  /// A file to lock that could not be opened: its path and why, in words.
  public struct OpenError: Error, Equatable, CustomStringConvertible {
    /// The file, or its folder when that could not be made.
    public let path: String
    /// "it is a symbolic link", "it is not a regular file", or the system's words.
    public let reason: String

    public var description: String { "cannot open \(path): \(reason)" }
  }

  /// How `open` opens a file.
  public struct Mode: Sendable {
    /// Write only (a file whose bytes this process writes), else read and write.
    public var writeOnly = false
    /// The file's permissions when it is created.
    public var permissions: mode_t = 0o600
    /// Create the file when missing.
    public var creating = true
    /// Create its folder too when missing.
    public var makingFolder = false
    /// The permissions of a folder it creates; nil for the umask's, as `mkdir -p` gives.
    public var folderPermissions: mode_t? = 0o700

    public init(
      writeOnly: Bool = false, permissions: mode_t = 0o600, creating: Bool = true,
      makingFolder: Bool = false, folderPermissions: mode_t? = 0o700
    ) {
      self.writeOnly = writeOnly
      self.permissions = permissions
      self.creating = creating
      self.makingFolder = makingFolder
      self.folderPermissions = folderPermissions
    }
  }

  /// What `acquire` found: the open file, locked by this process or held by another. The
  /// caller owns the descriptor either way (it may read the holder's word in it).
  public enum Acquired: Equatable, Sendable {
    case taken(Int32)
    case heldElsewhere(Int32)
  }

  /// Opens `path` to lock it, as `mode` says, and returns its descriptor (close-on-exec): never
  /// through a symbolic link, never waiting for a FIFO, and only when it is a regular file
  /// with one name, so that nobody can lead a lock, and what is written to the file, elsewhere.
  public static func open(_ path: String, _ mode: Mode = Mode()) throws(OpenError) -> Int32 {
    let flags =
      (mode.writeOnly ? O_WRONLY : O_RDWR) | (mode.creating ? O_CREAT : 0) | O_CLOEXEC
      | O_NOFOLLOW | O_NONBLOCK
    var descriptor = systemOpen(path, flags, mode.permissions)
    if descriptor < 0, errno == ENOENT || errno == ENOTDIR, mode.creating, mode.makingFolder {
      let folder = (path as NSString).deletingLastPathComponent
      do {
        try FileManager.default.createDirectory(
          atPath: folder, withIntermediateDirectories: true,
          attributes: mode.folderPermissions.map { [.posixPermissions: $0] })
      } catch {
        throw OpenError(path: folder, reason: error.localizedDescription)
      }
      descriptor = systemOpen(path, flags, mode.permissions)
    }
    guard descriptor >= 0 else {
      throw OpenError(path: path, reason: errno == ELOOP ? "it is a symbolic link" : lastError())
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      close(descriptor)
      throw OpenError(path: path, reason: "it is not a regular file")
    }
    guard status.st_nlink == 1 else {
      close(descriptor)
      throw OpenError(path: path, reason: "it is not a regular file with one name (a hard link)")
    }
    return descriptor
  }

  /// Opens `path` as `open` does and takes its exclusive lock without waiting, or asking again
  /// for `patience` milliseconds while another holds it (see `tryExclusive`).
  public static func acquire(
    _ path: String, _ mode: Mode = Mode(), patience: Int = 0
  ) throws(OpenError) -> Acquired {
    let descriptor = try open(path, mode)
    switch tryExclusive(descriptor, patience: patience) {
    case .taken: return .taken(descriptor)
    case .heldElsewhere: return .heldElsewhere(descriptor)
    case .failed(let code):
      close(descriptor)
      throw OpenError(path: path, reason: "cannot lock it: \(String(cString: strerror(code)))")
    }
  }

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
    do {
      return try open(url.path, Mode(makingFolder: true))
    } catch  where error.path == url.path {
      throw StoreFileError.unreadable(path: url.path, reason: error.reason)
    } catch {
      throw StoreFileError.unwritable(path: error.path, reason: error.reason)
    }
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
}

#if os(Linux)
  extension FileLock {
    /// Takes the exclusive lock of the byte at `offset` of the open file `descriptor`, a lock
    /// of its open file description (`F_OFD_SETLK`): another open of the file, in this process
    /// or another, conflicts, and the system lets go when the description's last descriptor
    /// closes, even by a crash. Asks again as `tryExclusive(_:patience:)` does.
    public static func tryExclusive(_ descriptor: Int32, byte offset: Int64, patience: Int)
      -> Attempt
    {
      var waited = 0
      while true {
        var lock = byteLock(Int16(F_WRLCK), at: offset)
        if fcntl(descriptor, setOpenFileLock, &lock) == 0 { return .taken }
        if errno == EINTR { continue }
        guard errno == EAGAIN || errno == EACCES else { return .failed(errno: errno) }
        guard waited < patience else { return .heldElsewhere }
        usleep(1000)
        waited += 1
      }
    }

    /// Whether an open of the file other than `descriptor`'s holds a lock on the byte at
    /// `offset` (`F_OFD_GETLK`); nil when that cannot be asked.
    public static func isLocked(_ descriptor: Int32, byte offset: Int64) -> Bool? {
      var lock = byteLock(Int16(F_WRLCK), at: offset)
      guard fcntl(descriptor, getOpenFileLock, &lock) == 0 else { return nil }
      return lock.l_type != Int16(F_UNLCK)
    }

    /// Lets go of the lock on the byte at `offset` of `descriptor`.
    public static func unlock(_ descriptor: Int32, byte offset: Int64) {
      var lock = byteLock(Int16(F_UNLCK), at: offset)
      _ = fcntl(descriptor, setOpenFileLock, &lock)
    }

    /// The process that holds the lock on the byte at `offset` of the file at `path`, from
    /// /proc, since such a lock names none: the first whose open of the file shows that lock.
    /// It reads every process's descriptors: for saying who holds a lock, not for taking one.
    public static func holder(ofByte offset: Int64, in path: String) -> Int32? {
      var file = stat()
      guard stat(path, &file) == 0,
        let processes = try? FileManager.default.contentsOfDirectory(atPath: "/proc")
      else { return nil }
      let range = ["\(offset)", "\(offset)"]
      for process in processes {
        guard let pid = Int32(process) else { continue }
        let descriptors = "/proc/\(process)/fd"
        for descriptor in (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []
        {
          var opened = stat()
          guard stat("\(descriptors)/\(descriptor)", &opened) == 0, opened.st_ino == file.st_ino,
            opened.st_dev == file.st_dev,
            let info = try? String(
              contentsOfFile: "/proc/\(process)/fdinfo/\(descriptor)", encoding: .utf8)
          else { continue }
          // "lock:\t1: OFDLCK ADVISORY WRITE -1 00:1b:4096105 305419896 305419896"
          for line in info.split(separator: "\n") where line.hasPrefix("lock:") {
            if line.split(separator: " ").suffix(2).map(String.init) == range { return pid }
          }
        }
      }
      return nil
    }

    private static func byteLock(_ type: Int16, at offset: Int64) -> flock {
      var lock = flock()
      lock.l_type = type
      lock.l_whence = Int16(SEEK_SET)
      lock.l_start = off_t(offset)
      lock.l_len = 1
      return lock
    }

    /// `F_OFD_GETLK` and `F_OFD_SETLK` (Linux 3.15), which Glibc's module does not export.
    private static let getOpenFileLock: Int32 = 36
    private static let setOpenFileLock: Int32 = 37
  }
#endif

/// `open(2)`, which `FileLock.open` hides within the type.
private func systemOpen(_ path: String, _ flags: Int32, _ permissions: mode_t) -> Int32 {
  open(path, flags, permissions)
}

/// The text of the current `errno`.
func lastError() -> String {
  String(cString: strerror(errno))
}
