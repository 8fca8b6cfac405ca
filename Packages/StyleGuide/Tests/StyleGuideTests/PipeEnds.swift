#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Both ends of a pipe, closed when released.
final class PipeEnds {
  let read: Int32
  let write: Int32

  init?() {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return nil }
    (read, write) = (ends[0], ends[1])
  }

  deinit {
    close(read)
    close(write)
  }
}
