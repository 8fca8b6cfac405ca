import Foundation
import LogAnalysis

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file mapped into memory read-only, unmapped with the last reference to it. The files
/// mapped (states, and partial results for `--merge`) are written once and replaced by
/// renaming, never changed in place: one cut short by another process while mapped would end
/// this one with SIGBUS.
enum MappedFile {
  /// The bytes of the file at `path`, mapped until the last reference to them goes.
  static func map(path: String) throws(PartialFileError) -> PinnedBytes {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else {
      throw PartialFileError(
        description: "cannot open \(path): \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw PartialFileError(
        description: "cannot read \(path): \(String(cString: strerror(errno)))")
    }
    let size = Int(status.st_size)
    guard size > 0 else { return PinnedBytes(UnsafeRawBufferPointer(start: nil, count: 0)) {} }
    guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0),
      mapped != MAP_FAILED
    else {
      throw PartialFileError(description: "cannot map \(path): \(String(cString: strerror(errno)))")
    }
    // Safe: the pointer is only unmapped, once, when the bytes are let go.
    nonisolated(unsafe) let start = mapped
    return PinnedBytes(UnsafeRawBufferPointer(start: mapped, count: size)) {
      munmap(start, size)
    }
  }
}
