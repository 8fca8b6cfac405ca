/// Bytes that stay where they lie until the last reference to them goes (a mapped file's):
/// `release` is called then, once.
package final class PinnedBytes: @unchecked Sendable {
  // Safe: the bytes are only read, and `release` runs once, in `deinit`.
  package let bytes: UnsafeRawBufferPointer
  private let release: @Sendable () -> Void

  package init(_ bytes: UnsafeRawBufferPointer, release: @escaping @Sendable () -> Void) {
    self.bytes = bytes
    self.release = release
  }

  deinit { release() }
}
