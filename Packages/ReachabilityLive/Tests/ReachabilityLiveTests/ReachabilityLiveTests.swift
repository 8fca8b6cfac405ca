import Foundation
import Reachability
import TestPorts
import Testing

@testable import ReachabilityLive

#if canImport(Glibc)
  import Glibc
#endif

/// A TCP listener on 127.0.0.1 that can be stopped and started again on the same port: a
/// `freePort()`, below the ephemeral range, so that while the listener is stopped no outgoing
/// connection (another test's, or a probe's own, which would connect to itself) takes it.
/// Stopped, it keeps the port bound without listening (a connect is refused), so that no
/// other test's `freePort()` is that port meanwhile.
private final class LocalServer {
  private(set) var port: UInt16 = 0
  private var descriptor: Int32 = -1

  init() throws {
    for _ in 0..<5 {
      port = UInt16(try freePort())
      if (try? start()) != nil { return }
    }
    throw POSIXError(.EADDRINUSE)
  }

  func start() throws {
    if descriptor < 0 { descriptor = try Self.bound(to: port) }
    guard listen(descriptor, 16) == 0 else {
      close(descriptor)
      descriptor = -1
      throw POSIXError(.EADDRINUSE)
    }
  }

  func stop() {
    close(descriptor)
    descriptor = (try? Self.bound(to: port)) ?? -1
  }

  deinit { if descriptor >= 0 { close(descriptor) } }

  var host: ReachabilityHost { ReachabilityHost(name: "127.0.0.1", port: Int(port)) }

  /// A socket bound to 127.0.0.1 and `port`, not listening. Without SO_REUSEADDR: no other
  /// socket can bind the port while this one holds it, listening or not.
  private static func bound(to port: UInt16) throws -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else {
      close(descriptor)
      throw POSIXError(.EADDRINUSE)
    }
    return descriptor
  }
}

@Suite struct ReachabilityLiveTests {
  private let reachability = Reachability.live(
    probeTimeout: .seconds(2), interval: .milliseconds(50), retryDelay: .milliseconds(10))

  @Test func aListeningPortIsReachableAndAClosedOneIsNot() async throws {
    let server = try LocalServer()
    #expect(await reachability.status(server.host) == .reachable)
    server.stop()
    #expect(await reachability.status(server.host) == .unreachable)
  }

  /// A probe whose socket has the port it probes as its own connects to itself (TCP's
  /// simultaneous open), as one given a closed local port in the ephemeral range can be;
  /// nothing listens there, so it is refused.
  @Test func aProbeThatConnectsToItselfIsRefused() throws {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #expect(descriptor >= 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(try freePort()).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let outcome = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        return bind(descriptor, pointer, length) == 0
          ? Probe.probe(descriptor, connectingTo: pointer, length: length, within: 2000) : nil
      }
    }
    #expect(outcome == .refused)
  }

  /// A closed port on a machine that answers is reachable for the network, not for `live`:
  /// the machine refused the connection, so the network is there.
  @Test func aRefusingHostIsReachableForTheNetworkOnly() async throws {
    let server = try LocalServer()
    let network = Reachability.network(probeTimeout: .seconds(2))
    #expect(await network.status(server.host) == .reachable)
    server.stop()
    #expect(await network.status(server.host) == .reachable)
    #expect(await reachability.status(server.host) == .unreachable)
  }

  @Test func changesFollowAServerThatStopsAndStartsAgain() async throws {
    let server = try LocalServer()
    var changes = reachability.changes(server.host).makeAsyncIterator()
    #expect(await changes.next() == .reachable)
    server.stop()
    #expect(await changes.next() == .unreachable)
    try server.start()
    #expect(await changes.next() == .reachable)
  }

  @Test func waitUntilReachableReturnsWhenTheServerStarts() async throws {
    let server = try LocalServer()
    server.stop()
    let host = server.host
    let waiter = Task { try await reachability.waitUntilReachable(host) }
    #expect(await reachability.status(host) == .unreachable)
    try server.start()
    try await waiter.value
  }

  /// A name that does not resolve (`.invalid` is reserved for that, RFC 6761) is unreachable
  /// for both: nothing answered.
  @Test func anUnknownHostIsUnreachable() async {
    let host = ReachabilityHost(name: "no-such-host.invalid", port: 80)
    #expect(await reachability.status(host) == .unreachable)
    #expect(await Reachability.network().status(host) == .unreachable)
  }

  @Test func loopbackNamesNeedNoRoute() {
    #expect(Routes.isLoopback("localhost"))
    #expect(Routes.isLoopback("127.0.0.1"))
    #expect(Routes.isLoopback("[::1]"))
    #expect(!Routes.isLoopback("example.com"))
  }

  @Test func readsBothRouteTableFormats() {
    let ipv4 = """
      Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
      eth0\t00000000\t0100A8C0\t0003\t0\t0\t0\t00000000\t0\t0\t0
      """
    let loopbackOnly = """
      Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
      lo\t0000007F\t00000000\t0001\t0\t0\t0\t000000FF\t0\t0\t0
      """
    let down = "eth0\t00000000\t0100A8C0\t0002\t0\t0\t0\t00000000\t0\t0\t0"
    let ipv6 =
      "00000000000000000000000000000000 00 00000000000000000000000000000000 00 fe800000000000000000000000000001 00000400 00000001 00000000 00000003 eth0"
    #expect(Routes.hasRouteBeyondLoopback(ipv4))
    #expect(!Routes.hasRouteBeyondLoopback(loopbackOnly))
    #expect(!Routes.hasRouteBeyondLoopback(down))
    #expect(Routes.hasRouteBeyondLoopback(ipv6))
  }
}
