import Foundation
import StoreLive

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file a download writes until it is complete: `<destination>.part`.
enum PartFile {
  static func url(for destination: URL) -> URL {
    // From the path, which costs a tenth of taking the URL apart (many small files).
    URL(fileURLWithPath: destination.path + ".part", isDirectory: false)
  }

  /// The size of the file at `url`, 0 when there is none.
  static func size(of url: URL) -> Int64 {
    status(of: url)?.size ?? 0
  }

  /// The size of the part file of `destination`, 0 when there is none: from the path, without
  /// a URL in between (a list of a thousand downloads takes a thousand).
  static func size(ofPartOf destination: URL) -> Int64 {
    var status = stat()
    return stat(destination.path + ".part", &status) == 0 ? Int64(status.st_size) : 0
  }

  /// The size and identity of the file at `url`, nil when there is none.
  static func status(of url: URL) -> (size: Int64, identity: FileIdentity)? {
    var status = stat()
    guard stat(url.path, &status) == 0 else { return nil }
    return (Int64(status.st_size), FileIdentity(status))
  }

  /// `part` opened for writing after its first `keeping` bytes (the rest is cut); see
  /// `open(_:)`.
  static func open(_ part: URL, keeping: Int64) throws -> FileHandle {
    let opened = try open(part)
    try keep(keeping, of: opened)
    return opened.handle
  }

  /// Cuts the file just opened after its first `bytes` and goes to its end, to write on: no
  /// system call for a new file kept empty, as nearly every one of a list of small files is.
  static func keep(_ bytes: Int64, of opened: Opened) throws {
    if bytes != opened.size { try opened.handle.truncate(atOffset: UInt64(bytes)) }
    if bytes > 0 { try opened.handle.seekToEnd() }
  }

  /// A part file just opened (`open(_:)`): at its start, with its identity and size then.
  struct Opened {
    let handle: FileHandle
    let identity: FileIdentity
    let size: Int64
  }

  /// `part` opened for writing, as it is, with its identity and size; created with its folder
  /// when missing. It must be a regular file of its own: a symbolic link, a second hard link, a
  /// FIFO or a device in its place is refused, so that nothing put in the folder can make a
  /// download write outside it. It is locked (`flock`) while the handle is open: a part file
  /// another process writes (another queue's download of the same name) is refused.
  static func open(_ part: URL) throws -> Opened {
    // Patient: a process being started holds the lock of a part file just closed for a moment.
    let acquired: FileLock.Acquired
    do {
      acquired = try FileLock.acquire(
        part.path,
        .init(
          writeOnly: true, permissions: 0o644, makingFolder: true, folderPermissions: nil),
        patience: 250)
    } catch {
      throw DownloadFileError("cannot write \(part.path): \(error.reason)")
    }
    switch acquired {
    case .taken(let descriptor):
      var status = stat()
      fstat(descriptor, &status)
      return Opened(
        handle: FileHandle(fileDescriptor: descriptor, closeOnDealloc: true),
        identity: FileIdentity(status), size: Int64(status.st_size))
    case .heldElsewhere(let descriptor):
      close(descriptor)
      throw DownloadFileError(
        "cannot write \(part.path): another process is writing it (a download of the same name "
          + "in another queue?)")
    }
  }

  /// Why a download may not write `file`, when a folder between `base` (the download folder)
  /// and it is a symbolic link (put there to lead the download elsewhere); nil when none is,
  /// or `file` is not inside `base` (a path the user gave whole is theirs).
  static func linkedFolder(of file: URL, below base: URL) -> String? {
    // On the paths' text: URL's own path operations cost more than the rest of adding a
    // download.
    // A file right in `base`, as most are, has no folder between, however the paths are spelt.
    let given = file.path
    if let slash = given.lastIndex(of: "/"), given[..<slash] == base.path { return nil }
    let basePath = base.standardizedFileURL.path
    let filePath = file.standardizedFileURL.path
    guard let slash = filePath.lastIndex(of: "/") else { return nil }
    let inside = basePath.hasSuffix("/") ? basePath : basePath + "/"
    // In `base` itself, or not below it: no folder between.
    guard filePath[..<slash].hasPrefix(inside) else { return nil }
    var path = basePath
    for part in filePath[inside.endIndex..<slash].split(separator: "/") {
      path += (path.hasSuffix("/") ? "" : "/") + part
      var status = stat()
      guard lstat(path, &status) == 0 else { return nil }
      if status.st_mode & S_IFMT == S_IFLNK {
        return "\(path) is a symbolic link: a download stays inside \(base.path)"
      }
    }
    return nil
  }

  /// Why `part` may not be taken by a download whose record names `recorded` as its part
  /// file, or nil when it may: it is not there, it is that file, or it is empty (nothing in it
  /// to lose: a run that ended between making it and saving it). A file of another program,
  /// another queue or an earlier download is never taken over.
  /// (A link, a FIFO or a device is left to `open`, which names it.)
  static func refusal(of part: URL, recorded: FileIdentity?) -> String? {
    var found = stat()
    guard lstat(part.path, &found) == 0, found.st_mode & S_IFMT == S_IFREG, found.st_size > 0,
      FileIdentity(found) != recorded
    else { return nil }
    return "\(part.path) exists and is not this download's part file: it is left as it is "
      + "(remove it, or give the download another name)"
  }
}

extension PartFile {
  /// Whether there is a file (or anything else) at `url`.
  static func exists(_ url: URL) -> Bool {
    var status = stat()
    return lstat(url.path, &status) == 0
  }

  /// Whether `url` names a device, a pipe or a socket (such as /dev/null), which a finished
  /// download's rename would replace with a file.
  static func isSpecial(_ url: URL) -> Bool {
    var status = stat()
    guard stat(url.path, &status) == 0 else { return false }
    let type = status.st_mode & S_IFMT
    return type == S_IFCHR || type == S_IFBLK || type == S_IFIFO || type == S_IFSOCK
  }

  /// Removes the file at `url`: nil when it is gone (or was not there), else the system's
  /// reason.
  static func remove(_ url: URL) -> String? {
    unlink(url.path) == 0 || errno == ENOENT ? nil : String(cString: strerror(errno))
  }

  /// Sets the access and modification times of the file at `url` to `date` (`utimensat`, as
  /// curl's `-R` does with `utime`): nil when done, else the system's reason.
  static func setTime(of url: URL, to date: Date) -> String? {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    let time = timespec(
      tv_sec: Int(seconds), tv_nsec: Int((date.timeIntervalSince1970 - seconds) * 1e9))
    let times = [time, time]
    return utimensat(AT_FDCWD, url.path, times, 0) == 0 ? nil : String(cString: strerror(errno))
  }

  /// Moves the complete `part` to `destination` in the same folder (`rename(2)`), replacing
  /// a file there in one step.
  static func place(_ part: URL, at destination: URL) throws {
    guard rename(part.path, destination.path) == 0 else {
      throw DownloadFileError(
        "cannot move \(part.path) into place: \(String(cString: strerror(errno)))")
    }
  }
}

extension FileIdentity {
  init(_ status: stat) {
    self.init(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
  }
}

struct DownloadFileError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

extension PartFile {
  /// Writes all of `data` to `handle`: at the file's position, or at `offset`, which leaves
  /// the position alone. The system's reason when it cannot ("No space left on device"),
  /// else nil.
  static func write(_ data: Data, to handle: FileHandle, at offset: Int64? = nil) -> String? {
    FileWrite.all(data, to: handle.fileDescriptor, at: offset.map { Int($0) })
      ? nil : String(cString: strerror(errno))
  }
}
