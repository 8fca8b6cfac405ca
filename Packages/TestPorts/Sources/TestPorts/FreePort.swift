#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why no port was found.
public struct NoFreePort: Error, CustomStringConvertible {
  public var description: String { "no free TCP port on 127.0.0.1 between 20000 and 32767" }
}

/// A TCP port on 127.0.0.1 that nothing was bound to a moment ago, for a test's server that
/// cannot pick its own (nginx, a process started with `--port N`). It lies below Linux's
/// ephemeral range (32768 and up): a port the system hands out (a server's port 0, an
/// outgoing connection) is never one of these, so a test that stops its server and starts it
/// again on the same port, or connects to a closed one to see it refused, does not meet
/// another test's socket there.
public func freePort() throws -> Int {
  for _ in 0..<100 {
    let port = Int.random(in: 20000..<32768)
    if isFree(port) { return port }
  }
  throw NoFreePort()
}

/// Whether a socket can be bound to `port` on 127.0.0.1 now.
func isFree(_ port: Int) -> Bool {
  #if canImport(Glibc)
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  #else
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
  #endif
  guard descriptor >= 0 else { return false }
  defer { close(descriptor) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = UInt16(port).bigEndian
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
    }
  }
}
