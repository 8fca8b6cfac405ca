import CPrefetch

/// The hashes of each client's last pages, beside the pages `Clients` keeps (`keep` per
/// client, in the same places), so that the sequence a visit completes is hashed without
/// loading its pages' hashes: with many pages, they are not cached. Scratch space for
/// reading one part of a log; with room for the sequence being hashed.
final class TailHashes {
  let keep: Int
  private var hashes: UnsafeMutableBufferPointer<UInt64>
  /// The hashes of the pages of the sequence a visit completes.
  let window: UnsafeMutablePointer<UInt64>

  init(keep: Int, length: Int) {
    self.keep = keep
    hashes = .allocate(capacity: 1024 * keep)
    window = .allocate(capacity: length)
  }

  deinit {
    hashes.deallocate()
    window.deallocate()
  }

  /// The hashes of `client`'s last pages.
  @inline(__always)
  func row(_ client: Int32) -> UnsafeMutablePointer<UInt64> {
    hashes.baseAddress! + Int(client) * keep
  }

  /// Starts loading the hashes of `client`'s last pages, when it has room.
  @inline(__always)
  func prefetch(_ client: Int32) {
    let start = Int(client) * keep
    if start < hashes.count { CPrefetch.prefetch(hashes.baseAddress! + start) }
  }

  /// Makes room for `client`.
  func makeRoom(for client: Int) {
    guard (client + 1) * keep > hashes.count else { return }
    let larger = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: 2 * hashes.count)
    _ = larger.initialize(from: hashes)
    hashes.deallocate()
    hashes = larger
  }
}
