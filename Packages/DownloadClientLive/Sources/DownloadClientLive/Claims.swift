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
/// `downloads resume --all`) never write the same part file.
///
/// A claim is an `flock` on `<id>.lock` in `folder`, holding the process ID; the system lets
/// go of it when the process ends, even by a crash. Another process asks the holder to cancel
/// by creating `<id>.cancel`, which the holder looks for while it runs. Without a folder
/// (one process, an in-memory queue) every claim succeeds.
struct Claims: Sendable {
  /// The folder's path (paths, not URLs: building a URL for each of many small files costs).
  private let folder: String?

  init(folder: URL?) {
    self.folder = folder?.path
  }

  /// Claims `id` for this process; throws `.busy` when another process holds it.
  func claim(_ id: DownloadID) throws(DownloadError) -> Claim {
    guard let folder else { return Claim(descriptor: nil, cancelMarker: nil) }
    let lock = Self.lockFile(of: id, in: folder)
    // Patient: a process being started holds the lock of a claim just let go for a moment.
    let acquired: FileLock.Acquired
    do {
      acquired = try FileLock.acquire(lock, .init(makingFolder: true), patience: 250)
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
    _ = ftruncate(descriptor, 0)
    _ = Self.processLine.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    return Claim(descriptor: descriptor, cancelMarker: Self.cancelFile(of: id, in: folder))
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
    try? FileManager.default.removeItem(atPath: Self.lockFile(of: id, in: folder))
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

  /// The file whose lock is the claim of `id`.
  private static func lockFile(of id: DownloadID, in folder: String) -> String {
    "\(folder)/\(id).lock"
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
  /// The path of the file whose presence asks this process to cancel.
  private let cancelMarker: String?

  init(descriptor: Int32?, cancelMarker: String?) {
    self.descriptor = descriptor
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
    FileLock.unlock(descriptor)
    close(descriptor)
  }
}
