import Checksum
import ChecksumTypes
import Foundation

/// The digest of a part file (MD5, SHA-1 or SHA-2, as the download's checksum says), computed
/// on a queue of its own while the bytes arrive, so the thread that receives them never waits
/// for it (unless 16 pieces are already waiting, which keeps memory bounded).
///
/// `@unchecked Sendable`: `hasher`, `hashed` and `failure` are only touched on `queue`.
final class RunningDigest: @unchecked Sendable {
  private let queue = DispatchQueue(label: "DownloadClientLive.RunningDigest")
  private let room = DispatchSemaphore(value: 16)
  private var hasher: Digest

  init(_ algorithm: DigestAlgorithm) {
    hasher = Digest(algorithm)
  }
  /// The bytes of the part file that `hasher` covers.
  private var hashed: Int64 = 0
  private var failure: (any Error)?

  /// Makes the hash cover exactly the first `offset` bytes of `part` before the next piece:
  /// it goes on when it already does, and otherwise starts again from the bytes on disk.
  func start(at offset: Int64, of part: URL) {
    queue.async { self.rehash(part, upTo: offset) }
  }

  /// Adds the next piece of the part file.
  func add(_ piece: Data) {
    room.wait()
    queue.async {
      self.hasher.update(piece)
      self.hashed += Int64(piece.count)
      self.room.signal()
    }
  }

  /// The hex digest of the whole part file of `size` bytes, once every piece is hashed.
  func finish(_ part: URL, size: Int64) throws -> String {
    try queue.sync {
      rehash(part, upTo: size)
      if let failure { throw failure }
      let hex = hasher.finalize()
      hashed = 0
      return hex
    }
  }

  private func rehash(_ part: URL, upTo offset: Int64) {
    guard hashed != offset || failure != nil else { return }
    _ = hasher.finalize()
    hashed = 0
    failure = nil
    do {
      try hasher.update(fileAt: part, upTo: offset)
      hashed = offset
    } catch {
      failure = error
    }
  }
}
