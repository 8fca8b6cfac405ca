import Foundation
import Reachability

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A short TCP connect.
enum Probe {
  /// Whether a TCP connection to `host` opens within `timeout`. The lookup and the connect
  /// block, so they run on a thread of their own.
  static func connects(to host: ReachabilityHost, within timeout: Duration) async -> Bool {
    let milliseconds = Int32(
      clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds
        / 1_000_000_000_000_000)
    return await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        continuation.resume(returning: connectsNow(to: host, milliseconds: milliseconds))
      }
    }
  }

  private static func connectsNow(to host: ReachabilityHost, milliseconds: Int32) -> Bool {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if canImport(Glibc)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    var list: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host.name, String(host.port), &hints, &list) == 0, let list else {
      return false
    }
    defer { freeaddrinfo(list) }
    var next: UnsafeMutablePointer<addrinfo>? = list
    while let address = next {
      if connects(to: address.pointee, milliseconds: milliseconds) { return true }
      next = address.pointee.ai_next
    }
    return false
  }

  /// A non-blocking connect to one address, waited for with `poll`.
  private static func connects(to address: addrinfo, milliseconds: Int32) -> Bool {
    let descriptor = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    if connect(descriptor, address.ai_addr, address.ai_addrlen) == 0 { return true }
    guard errno == EINPROGRESS else { return false }
    var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
    guard poll(&request, 1, milliseconds) == 1 else { return false }
    var failure: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length)
    return failure == 0
  }
}
