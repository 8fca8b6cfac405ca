import DownloadFeature
import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// The daemon's server: aria2's JSON-RPC at `/jsonrpc`, over HTTP POST and over WebSocket
/// (which also carries the notifications), answered by an `Aria2Service`. The HTTP and
/// WebSocket protocols are FlyingFox's.
public struct RPCServer: Sendable {
  /// Where and how much it serves.
  public struct Limits: Sendable {
    /// The largest request body, as aria2c's `--rpc-max-request-size` (2 MiB).
    public var requestBytes = 2 * 1024 * 1024
    /// WebSocket clients at once; more are answered 503.
    public var webSockets = 64
    /// Requests handled at once; more are answered 503.
    public var requests = 64

    public init() {}
  }

  let server: HTTPServer

  /// A server of `service` on `port` (0 for a free one) of the loopback interface, or of
  /// every interface with `listenAll`.
  public init(service: Aria2Service, port: UInt16, listenAll: Bool, limits: Limits = Limits())
    throws
  {
    let address: any SocketAddress =
      listenAll ? sockaddr_in.inet(port: port) : try sockaddr_in.inet(ip4: "127.0.0.1", port: port)
    let gate = Gate(limits: limits)
    let handler = JSONRPCHandler(service: service, gate: gate)
    // The routes are the server's from the start: none is added after it listens.
    var routes = RoutedHTTPHandler()
    routes.appendRoute("POST /jsonrpc", to: handler)
    routes.appendRoute("OPTIONS /jsonrpc", to: handler)
    routes.appendRoute(
      "GET /jsonrpc",
      to: GatedWebSocket(
        gate: gate, handler: .webSocket(WebSocketRPC(service: service, gate: gate))))
    server = HTTPServer(
      config: HTTPServer.Configuration(
        address: address, pool: NoDelayPool(pool: HTTPServer.defaultPool()), logger: .disabled),
      handler: routes)
  }

  /// Starts serving, until `stop()`, and returns the port it listens on once it does; throws
  /// at once when it cannot listen (the port is taken, say).
  public func start() async throws -> UInt16 {
    enum Outcome: Sendable {
      case listening
      case failed(any Error)
    }
    let (outcomes, outcome) = AsyncStream<Outcome>.makeStream()
    Task { [server] in
      do {
        try await server.run()
      } catch {
        outcome.yield(.failed(error))
      }
    }
    Task { [server] in
      do {
        try await server.waitUntilListening(timeout: 10)
        outcome.yield(.listening)
      } catch {
        outcome.yield(.failed(error))
      }
    }
    for await first in outcomes {
      if case .failed(let error) = first { throw RPCServerError(error) }
      break
    }
    guard case .ip4(_, let port)? = await server.listeningAddress else {
      throw RPCServerError("the server listens on no IPv4 address")
    }
    return port
  }

  public func stop() async {
    await server.stop()
  }
}

struct RPCServerError: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) { self.description = description }

  /// `error` in words: a socket's failure as the system says it ("Address already in use").
  init(_ error: any Error) {
    if case SocketError.failed(_, _, let message) = error {
      description = message
    } else {
      description = "\(error)"
    }
  }
}

/// Counts the requests and WebSocket clients being served, against the limits.
final class Gate: Sendable {
  enum Kind { case request, webSocket }

  let limits: RPCServer.Limits
  private let counts = Mutex<[Kind: Int]>([:])

  init(limits: RPCServer.Limits) { self.limits = limits }

  /// Takes a place of `kind`; false when all are taken.
  func enter(_ kind: Kind) -> Bool {
    let limit = kind == .request ? limits.requests : limits.webSockets
    return counts.withLock { counts in
      guard counts[kind, default: 0] < limit else { return false }
      counts[kind, default: 0] += 1
      return true
    }
  }

  /// Gives back a place of `kind`.
  func leave(_ kind: Kind) { counts.withLock { $0[kind, default: 0] -= 1 } }
}
