// libFuzzer target: Metalink on any bytes, compiled by Fuzz/run.sh with its sources and those
// of XMLPathParser and ChecksumTypes as one module. Any document ends in a Metalink whose every
// file has a name, or a MetalinkError, never a crash or a hang, within the memory bound of
// MemoryBound.swift.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMetalink(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let data = Data(UnsafeRawBufferPointer(start: start, count: count))
  checkMemory(of: count) {
    do {
      let metalink = try Metalink(data)
      precondition(!metalink.files.isEmpty && metalink.files.allSatisfy { !$0.name.isEmpty })
    } catch {
      precondition(error is MetalinkError, "an error other than MetalinkError: \(error)")
    }
  }
  return 0
}
