import DownloadClient
import Foundation
import StoreLive

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which process writes a download. Only the holder of a download's claim writes its part file
/// and its record, so two processes (two `fetcher download` runs of one URL, or one and
/// `downloads resume --all`) never write the same part file. The system lets go of a claim when
/// its process ends, even by a crash.
///
/// On Linux a claim is a lock on one byte of the file `byte-locks` in `folder`, the byte at the
/// download's number (`FileLock.tryExclusive(_:byte:patience:)`), so that claiming makes no
/// file: a lock file a download, as elsewhere, took half the time of a list of small files
/// written to a disk. The claim of an earlier version, an `flock` on `<id>.lock`, is respected.
/// Elsewhere a claim is an `flock` on `<id>.lock`, holding the process ID. Another process asks
/// the holder to cancel by creating `<id>.cancel`, which the holder looks for while it runs.
/// Without a folder (one process, an in-memory queue) every claim succeeds.
struct Claims: Sendable {
  /// The folder's path (paths, not URLs: building a URL for each of many small files costs).
  private let folder: String?

  init(folder: URL?) {
    self.folder = folder?.path
  }

  /// Claims `id` for this process; throws `.busy` when another process holds it.
  func claim(_ id: DownloadID) throws(DownloadError) -> Claim {
    guard let folder else { return Claim(descriptor: nil, byte: nil, cancelMarker: nil) }
    #if os(Linux)
      if let earlier = try fileClaim(id, in: folder, creating: false) { earlier.release() }
      let path = Self.byteLocks(in: folder)
      let descriptor: Int32
      do {
        descriptor = try FileLock.open(path, .init(makingFolder: true))
      } catch {
        throw .file(error.description)
      }
      let byte = Self.byte(of: id)
      // Patient: a process being started holds the locks of a claim just let go for a moment.
      switch FileLock.tryExclusive(descriptor, byte: byte, patience: 250) {
      case .taken:
        return Claim(
          descriptor: descriptor, byte: byte, cancelMarker: Self.cancelFile(of: id, in: folder))
      case .heldElsewhere:
        close(descriptor)
        throw .busy(id, pid: FileLock.holder(ofByte: byte, in: path))
      case .failed(let code):
        close(descriptor)
        throw .file("cannot lock \(path): \(String(cString: strerror(code)))")
      }
    #else
      return try fileClaim(id, in: folder, creating: true)!
    #endif
  }

  /// The claim of `id` by an `flock` on its own file, `<id>.lock`, which is given the process
  /// ID; nil when the file is not there and not `creating`.
  private func fileClaim(_ id: DownloadID, in folder: String, creating: Bool)
    throws(DownloadError) -> Claim?
  {
    let lock = Self.lockFile(of: id, in: folder)
    guard creating || access(lock, F_OK) == 0 else { return nil }
    // Patient: a process being started holds the lock of a claim just let go for a moment.
    let acquired: FileLock.Acquired
    do {
      acquired = try FileLock.acquire(
        lock, .init(creating: creating, makingFolder: creating), patience: 250)
    } catch {
      throw .file(error.description)
    }
    let descriptor: Int32
    switch acquired {
    case .taken(let taken): descriptor = taken
    case .heldElsewhere(let held):
      defer { close(held) }
      throw .busy(id, pid: Self.holder(held))
    }
    if creating {
      _ = ftruncate(descriptor, 0)
      _ = Self.processLine.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }
    return Claim(
      descriptor: descriptor, byte: nil, cancelMarker: Self.cancelFile(of: id, in: folder))
  }

  /// Claims `id`, asking the process that holds it, if any, to cancel the download and
  /// waiting up to `patience` on `clock` for it to let go (the holder looks for the request
  /// four times a second).
  func claimCancelling<C: Clock<Duration>>(
    _ id: DownloadID, clock: C, patience: Duration = .seconds(10)
  ) async throws(DownloadError) -> Claim {
    guard let folder else { return try claim(id) }
    let marker = Self.cancelFile(of: id, in: folder)
    defer { unlink(marker) }
    let deadline = clock.now.advanced(by: patience)
    while true {
      do {
        return try claim(id)
      } catch .busy(let id, let pid) {
        let asked = open(marker, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard asked >= 0 else {
          throw .file(
            "cannot ask process \(pid.map(String.init) ?? "?") to cancel \(id): "
              + "cannot create \(marker): \(Self.lastError())")
        }
        close(asked)
        guard clock.now < deadline else { throw .busy(id, pid: pid) }
        do {
          try await clock.sleep(for: .milliseconds(20))
        } catch {
          throw .busy(id, pid: pid)  // Cancelled: the claim was not had.
        }
      }
    }
  }

  /// Whether a process holds the claim of `id` (this one too: ask only about downloads this
  /// process does not run).
  func isHeld(_ id: DownloadID) -> Bool {
    guard let folder else { return false }
    #if os(Linux)
      if let descriptor = try? FileLock.open(Self.byteLocks(in: folder), .init(creating: false)) {
        defer { close(descriptor) }
        if FileLock.isLocked(descriptor, byte: Self.byte(of: id)) == true { return true }
      }
    #endif
    let lock = Self.lockFile(of: id, in: folder)
    guard let acquired = try? FileLock.acquire(lock, .init(creating: false)) else { return false }
    switch acquired {
    case .taken(let descriptor):
      close(descriptor)
      return false
    case .heldElsewhere(let descriptor):
      close(descriptor)
      return true
    }
  }

  /// Removes the files of `id`, which this process claims and which is gone for good.
  func forget(_ id: DownloadID) {
    guard let folder else { return }
    unlink(Self.lockFile(of: id, in: folder))
  }

  /// The process ID written in a lock file, when there is one.
  private static func holder(_ descriptor: Int32) -> Int32? {
    var buffer = [UInt8](repeating: 0, count: 16)
    let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 15, 0) }
    guard count > 0 else { return nil }
    return Int32(
      String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(
        in: .whitespacesAndNewlines))
  }

  /// What a claim's file holds: the process ID and a newline.
  private static let processLine = Array("\(getpid())\n".utf8)

  /// The file whose lock is the claim of `id`, elsewhere than on Linux and in earlier
  /// versions.
  private static func lockFile(of id: DownloadID, in folder: String) -> String {
    "\(folder)/\(id).lock"
  }

  /// The file whose bytes' locks are the claims on Linux: a name no download's files have.
  static func byteLocks(in folder: String) -> String {
    "\(folder)/byte-locks"
  }

  /// The byte of `byteLocks` whose lock is the claim of `id`: its number, for the 8 hex digits
  /// of `DownloadID.random()`, so that no two of a queue share one; for another ID, a hash of
  /// it past those.
  static func byte(of id: DownloadID) -> Int64 {
    let text = id.rawValue
    if text.utf8.count == 8, text.allSatisfy(\.isHexDigit), let number = UInt32(text, radix: 16) {
      return Int64(number)
    }
    var hash: UInt32 = 2_166_136_261  // FNV-1a
    for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    return (1 << 32) + Int64(hash)
  }

  /// The file whose presence asks the holder of `id` to cancel it.
  private static func cancelFile(of id: DownloadID, in folder: String) -> String {
    "\(folder)/\(id).cancel"
  }

  private static func lastError() -> String { String(cString: strerror(errno)) }
}

/// A download claimed by this process, until `release()`.
final class Claim: Sendable {
  private let descriptor: Int32?
  /// The byte of the file whose lock is the claim, when it is not the whole file's `flock`.
  private let byte: Int64?
  /// The path of the file whose presence asks this process to cancel.
  private let cancelMarker: String?

  init(descriptor: Int32?, byte: Int64?, cancelMarker: String?) {
    self.descriptor = descriptor
    self.byte = byte
    self.cancelMarker = cancelMarker
  }

  /// Whether another process asked this one to cancel the download.
  var cancelRequested: Bool {
    guard let cancelMarker else { return false }
    return access(cancelMarker, F_OK) == 0
  }

  /// Whether another process can ask to cancel the download (the claim is on a file).
  var canBeCancelledElsewhere: Bool { cancelMarker != nil }

  /// Lets go of the claim. Call it once.
  func release() {
    guard let descriptor else { return }
    #if os(Linux)
      if let byte { FileLock.unlock(descriptor, byte: byte) } else { FileLock.unlock(descriptor) }
    #else
      FileLock.unlock(descriptor)
    #endif
    close(descriptor)
  }
}
