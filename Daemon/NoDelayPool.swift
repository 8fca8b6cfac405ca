import FlyingFox
import FlyingSocks
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// FlyingFox's socket pool, with Nagle's algorithm turned off on every socket it waits for:
/// FlyingFox writes a response's head and body apart, and a client that delays its ACK (as
/// most do) held the body of each answer on a kept-alive connection for 40 ms. On Linux the
/// connections accepted after the listening socket waits take the option from it.
struct NoDelayPool: AsyncSocketPool {
  let pool: any AsyncSocketPool

  func prepare() async throws { try await pool.prepare() }

  func run() async throws { try await pool.run() }

  func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
    try? socket.setValue(true, for: BoolSocketOption(level: Int32(IPPROTO_TCP), name: TCP_NODELAY))
    try await pool.suspendSocket(socket, untilReadyFor: events)
  }
}
