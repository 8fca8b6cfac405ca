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
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    if connect(descriptor, address.ai_addr, address.ai_addrlen) == 0 { return .connected }
    guard errno == EINPROGRESS else { return outcome(of: errno) }
    var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
    guard poll(&request, 1, milliseconds) == 1 else { return .failed }
    var failure: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length)
    return failure == 0 ? .connected : outcome(of: failure)
  }

  private static func outcome(of failure: Int32) -> Outcome {
    failure == ECONNREFUSED ? .refused : .failed
  }
}
