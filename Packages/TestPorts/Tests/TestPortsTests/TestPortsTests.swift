import Testing

@testable import TestPorts

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct TestPortsTests {
  @Test func aFreePortIsBelowTheEphemeralRangeAndCanBeBound() throws {
    let port = try freePort()
    #expect((20000..<32768).contains(port))
    #expect(isFree(port))
  }

  @Test func aPortInUseIsNotFree() throws {
    let port = try freePort()
    #if canImport(Glibc)
      let held = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let held = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    defer { close(held) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(held, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 && listen(held, 1) == 0
      }
    }
    try #require(bound)
    #expect(!isFree(port))
  }
}
