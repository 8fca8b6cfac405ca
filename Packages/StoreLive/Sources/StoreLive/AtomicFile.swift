import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Replaces a file so that readers and crashes see either the old or the new contents: the one
/// way the packages write a whole file.
public enum AtomicFile {
  /// Writes `data` to a temporary file beside `url` (created anew with `permissions`, less
  /// the umask, `0600` by default; never through a link), flushes it to disk, renames it over
  /// `url`, and flushes the folder, so the rename itself survives a crash. Whatever `url` was
  /// (a link among them) is replaced, never written through. Throws
  /// `StoreFileError.unwritable`.
  public static func replace(_ url: URL, with data: Data, permissions: mode_t = 0o600) throws {
    try prepare(url, with: [data], permissions: permissions).commit()
  }

  /// `replace(_:with:permissions:)` of the bytes that `contents` hands, in order, to the
  /// function it is given: a large file written without gathering it in memory first.
  public static func replace(
    _ url: URL, permissions: mode_t = 0o600,
    contents: ((UnsafeRawBufferPointer) -> Void) -> Void
  ) throws {
    try prepare(url, permissions: permissions, contents: contents).commit()
  }

  /// The first half of `replace`: `pieces`, one after another, written to a temporary file
  /// beside `url` and flushed, for `Prepared.commit()` to put in place (so that other work
  /// can go on between the two). Throws `StoreFileError.unwritable`.
  public static func prepare(_ url: URL, with pieces: [Data], permissions: mode_t = 0o600) throws
    -> Prepared
  {
    try prepare(url, permissions: permissions) { write in
      for piece in pieces { piece.withUnsafeBytes(write) }
    }
  }

  private static func prepare(
    _ url: URL, permissions: mode_t, contents: ((UnsafeRawBufferPointer) -> Void) -> Void
  ) throws -> Prepared {
    let temporary = "\(url.path).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
    guard descriptor >= 0 else { throw failure(url, "cannot create \(temporary)") }
    guard FileWrite.all(handedBy: contents, to: descriptor), fsync(descriptor) == 0 else {
      let error = failure(url, "cannot write \(temporary)")
      close(descriptor)
      unlink(temporary)
      throw error
    }
    close(descriptor)
    return Prepared(destination: url, temporary: temporary)
  }

  /// A file written beside its destination and flushed, not yet in its place.
  public struct Prepared: Sendable {
    public let destination: URL
    let temporary: String

    /// Renames the file over the destination and flushes the folder. Throws
    /// `StoreFileError.unwritable`, the file removed.
    public func commit() throws {
      guard rename(temporary, destination.path) == 0 else {
        let error = failure(destination, "cannot rename \(temporary)")
        unlink(temporary)
        throw error
      }
      let folder = destination.deletingLastPathComponent().path
      let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      if folderDescriptor >= 0 {
        fsync(folderDescriptor)
        close(folderDescriptor)
      }
    }

    /// Removes the file, leaving the destination as it was.
    public func discard() {
      unlink(temporary)
    }
  }

  /// Whether `name`, in the folder of the file named `fileName`, is what a `prepare` of that
  /// file left when its process died before `commit` or `discard`.
  public static func isLeftover(_ name: String, of fileName: String) -> Bool {
    name.hasPrefix("\(fileName).tmp-")
  }
}

private func failure(_ url: URL, _ step: String) -> StoreFileError {
  StoreFileError.unwritable(path: url.path, reason: "\(step): \(lastError())")
}
