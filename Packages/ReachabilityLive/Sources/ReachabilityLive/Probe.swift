import Foundation
import Reachability

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A short TCP connect.
enum Probe {
  /// How a connect ended.
  enum Outcome: Equatable {
    case connected
    /// The host answered with a reset: the network reaches it, but nothing listens on the port.
    case refused
    /// No answer: the name does not resolve, there is no route, or the time ran out.
    case failed
  }

  /// How a TCP connection to `host` goes within `timeout`: connected on the first address
  /// that accepts, refused when some address refused and none accepted. The lookup and the
  /// connect block, so they run on a thread of their own.
  static func attempt(_ host: ReachabilityHost, within timeout: Duration) async -> Outcome {
    let milliseconds = Int32(
      clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds
        / 1_000_000_000_000_000)
    return await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        continuation.resume(returning: connectNow(to: host, milliseconds: milliseconds))
      }
    }
  }

  private static func connectNow(to host: ReachabilityHost, milliseconds: Int32) -> Outcome {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if canImport(Glibc)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    var list: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host.name, String(host.port), &hints, &list) == 0, let list else {
      return .failed
    }
    defer { freeaddrinfo(list) }
    var outcome = Outcome.failed
    var next: UnsafeMutablePointer<addrinfo>? = list
    while let address = next {
      switch probe(address.pointee, milliseconds: milliseconds) {
      case .connected: return .connected
      case .refused: outcome = .refused
      case .failed: break
      }
      next = address.pointee.ai_next
    }
    return outcome
  }

  /// A non-blocking connect to one address, waited for with `poll`.
  private static func probe(_ address: addrinfo, milliseconds: Int32) -> Outcome {
    let descriptor = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
    guard descriptor >= 0 else { return .failed }
    defer { close(descriptor) }
    return probe(
      descriptor, connectingTo: address.ai_addr, length: address.ai_addrlen, within: milliseconds)
  }

  /// How a connect of the socket `descriptor` to `address` goes within `milliseconds`. A
  /// socket that connected to itself is refused: a probe of a closed local port in the
  /// ephemeral range can be given that port as its own, and TCP's simultaneous open then
  /// connects it to itself, where nothing listens.
  static func probe(
    _ descriptor: Int32, connectingTo address: UnsafePointer<sockaddr>, length: socklen_t,
    within milliseconds: Int32
  ) -> Outcome {
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    if connect(descriptor, address, length) != 0 {
      guard errno == EINPROGRESS else { return outcome(of: errno) }
      var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
      guard poll(&request, 1, milliseconds) == 1 else { return .failed }
      var failure: Int32 = 0
      var size = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &size)
      guard failure == 0 else { return outcome(of: failure) }
    }
    return isConnectedToItself(descriptor) ? .refused : .connected
  }

  /// Whether the connected socket's own address is its peer's.
  private static func isConnectedToItself(_ descriptor: Int32) -> Bool {
    func address(
      _ read: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32
    ) -> [UInt8]? {
      var storage = sockaddr_storage()
      var size = socklen_t(MemoryLayout<sockaddr_storage>.size)
      let done = withUnsafeMutablePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { read(descriptor, $0, &size) }
      }
      guard done == 0 else { return nil }
      return withUnsafeBytes(of: &storage) { Array($0.prefix(Int(size))) }
    }
    guard let own = address(getsockname), let peer = address(getpeername) else { return false }
    return own == peer
  }

  private static func outcome(of failure: Int32) -> Outcome {
    failure == ECONNREFUSED ? .refused : .failed
  }
}
