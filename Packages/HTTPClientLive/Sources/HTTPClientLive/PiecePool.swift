import Foundation
import Synchronization

/// Reusable buffers for body pieces. A piece is handed on as `Data` over one of them, and its
/// memory comes back here when the last holder lets go (a receiver may keep pieces a while,
/// to hash them on another thread), so a steady transfer allocates no memory.
final class PiecePool: Sendable {
  let size: Int
  private let free = Mutex<[FreeBuffer]>([])

  /// `@unchecked Sendable`: a buffer has one holder at a time (the pool, a transfer that
  /// fills it, or the `Data` handed on), and the pool's list is behind its lock.
  private struct FreeBuffer: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
  }

  init(size: Int) {
    self.size = size
  }

  deinit {
    for buffer in free.withLock({ $0 }) { buffer.pointer.deallocate() }
  }

  /// A buffer of `size` bytes, to fill and hand on with `piece(_:count:)`.
  func take() -> UnsafeMutableRawPointer {
    free.withLock { $0.popLast()?.pointer }
      ?? .allocate(byteCount: size, alignment: MemoryLayout<UInt64>.alignment)
  }

  /// The first `count` bytes of `buffer` as `Data`; the buffer comes back to the pool when
  /// the data is released.
  func piece(_ buffer: UnsafeMutableRawPointer, count: Int) -> Data {
    Data(bytesNoCopy: buffer, count: count, deallocator: .custom { buffer, _ in self.give(buffer) })
  }

  /// Takes back `buffer` unused.
  func give(_ buffer: UnsafeMutableRawPointer) {
    let buffer = FreeBuffer(pointer: buffer)
    free.withLock { $0.append(buffer) }
  }
}
