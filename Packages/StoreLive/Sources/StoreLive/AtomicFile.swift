import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Replaces a file so that readers and crashes see either the old or the new contents: the one
/// way the packages write a whole file.
public enum AtomicFile {
  /// Writes `data` to a temporary file beside `url` (created anew, `0600`, never through a
  /// link), flushes it to disk, renames it over `url`, and flushes the folder, so the rename
  /// itself survives a crash. Whatever `url` was (a link among them) is replaced, never
  /// written through. Throws `StoreFileError.unwritable`.
  public static func replace(_ url: URL, with data: Data) throws {
    let folder = url.deletingLastPathComponent().path
    let temporary = "\(url.path).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let failure = { (step: String) in
      StoreFileError.unwritable(path: url.path, reason: "\(step): \(lastError())")
    }

    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw failure("cannot create \(temporary)") }
    guard FileWrite.all(data, to: descriptor), fsync(descriptor) == 0 else {
      let error = failure("cannot write \(temporary)")
      close(descriptor)
      unlink(temporary)
      throw error
    }
    close(descriptor)
    guard rename(temporary, url.path) == 0 else {
      let error = failure("cannot rename \(temporary)")
      unlink(temporary)
      throw error
    }
    let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folderDescriptor >= 0 {
      fsync(folderDescriptor)
      close(folderDescriptor)
    }
  }
}
