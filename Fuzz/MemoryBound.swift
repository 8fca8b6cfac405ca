// The heap an input takes, for the fuzz targets of parsers (XMLPath, Metalink): a malloc hook
// of the address sanitizer keeps the most bytes allocated at once, and `checkMemory` fails an
// input that took more than 64 MiB and 1,000 bytes per byte of its own. What a document's DTD
// may add (XMLPathParser's EntityExpansion) is held at most a few times over, so the bound is
// far more than a document within it needs, and far less than a quadratic expansion takes.
import Foundation

@_silgen_name("__sanitizer_install_malloc_and_free_hooks")
private func installHooks(
  _ malloc: @convention(c) (UnsafeRawPointer?, Int) -> Void,
  _ free: @convention(c) (UnsafeRawPointer?) -> Void
) -> CInt

@_silgen_name("__sanitizer_get_current_allocated_bytes")
private func allocatedBytes() -> Int

/// The most bytes allocated at once since it was last reset. Written by the malloc hook: the
/// fuzzer runs one input at a time on one thread, and the parsers make no threads.
nonisolated(unsafe) private var peak = 0

private let hooked: Void = {
  _ = installHooks({ _, _ in peak = max(peak, allocatedBytes()) }, { _ in })
}()

/// Runs `body` on an input of `count` bytes, and stops the fuzzer when it took more memory
/// than the bound.
func checkMemory(of count: Int, _ body: () -> Void) {
  hooked
  let before = allocatedBytes()
  peak = before
  body()
  let taken = peak - before
  if taken > 64 << 20 + 1_000 * count {
    fatalError("\(count) bytes of input took \(taken) bytes of memory")
  }
}
