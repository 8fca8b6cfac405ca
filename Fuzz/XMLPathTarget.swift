// libFuzzer target: XMLPathParser on any bytes, compiled with its sources by Fuzz/run.sh.
// Any document ends in matches or an XMLPathError, never a crash or a hang, and the heap it
// takes stays within a bound of its length: what its entities may add (EntityExpansion) is
// held at most a few times over, so 64 MiB and 1,000 bytes a byte of input are far more than
// a document within that bound needs, and far less than a quadratic expansion takes.
import Foundation

private let parser = try! XMLPathParser([
  "feed.entry.im:name": 0, "feed.entry.im:image@height": 1, "feed.entry.link@rel=enclosure": 2,
  "rss.channel.item.title": 3, "a.b": 4,
])

@_silgen_name("__sanitizer_install_malloc_and_free_hooks")
private func installHooks(
  _ malloc: @convention(c) (UnsafeRawPointer?, Int) -> Void,
  _ free: @convention(c) (UnsafeRawPointer?) -> Void
) -> CInt

@_silgen_name("__sanitizer_get_current_allocated_bytes")
private func allocatedBytes() -> Int

/// The most bytes allocated at once since it was last reset. Written by the malloc hook: the
/// fuzzer runs one input at a time on one thread, and the parser makes no threads.
nonisolated(unsafe) private var peak = 0

private let hooked: Void = {
  _ = installHooks({ _, _ in peak = max(peak, allocatedBytes()) }, { _ in })
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLPath(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  hooked
  let data = Data(UnsafeRawBufferPointer(start: start, count: count))
  let before = allocatedBytes()
  peak = before
  var matches = 0
  do {
    try parser.parse(data) { _ in matches += 1 }
  } catch {
    precondition(error is XMLPathError, "an error other than XMLPathError: \(error)")
  }
  let taken = peak - before
  if taken > 64 << 20 + 1_000 * count {
    fatalError("\(count) bytes of XML took \(taken) bytes of memory")
  }
  return 0
}
