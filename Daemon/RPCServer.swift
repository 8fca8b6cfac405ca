import DownloadRPCService
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// The daemon's server: aria2's JSON-RPC at `/jsonrpc`, over HTTP POST and over WebSocket
/// (which also carries the notifications), answered by an `Aria2Service`, and a page of its
/// own at `/` that drives it; on a TCP port for front ends and browsers, and on a Unix socket in the owner's state folder for the command line. HTTP,
/// WebSocket and their defences are Hummingbird's on SwiftNIO: a linear parser with limits
/// on header lines, accepting that backs off when descriptors run out, idle timeouts, frames
/// and messages checked against their limit as they are read, and writes that wait for a
/// client that does not read.
public final class RPCServer: Sendable {
  /// How much it serves.
  public struct Limits: Sendable {
    /// The largest request body or WebSocket message, as aria2c's `--rpc-max-request-size`
    /// (2 MiB).
    public var requestBytes = 2 * 1024 * 1024
    /// WebSocket clients at once; more are closed at once.
    public var webSockets = 64
    /// The time a client has to send a request's body, however slowly it trickles.
    public var bodyTime = Duration.seconds(10)
    /// The time a new connection has to send its first request's head.
    public var headTime = Duration.seconds(10)
    /// How long a connection may stay open without a request after its first.
    public var idleTime = Duration.seconds(60)

    public init() {}
  }

  /// Who it answers besides the owner's socket.
  public struct Access: Sendable {
    /// Listen on every interface and take any `Host` (`--rpc-listen-all`); otherwise only
    /// loopback, and only requests addressed to an IP address or `localhost`, so that a page
    /// cannot reach it through a name of its own that resolves to 127.0.0.1.
    public var listenAll = false
    /// Let pages of any origin read the answers over HTTP (`--rpc-allow-origin-all`).
    public var allowOriginAll = false
    /// Whether calls need a secret. Without one, a request from a page of another origin is
    /// refused unless `allowOriginAll`.
    public var hasSecret = true
    /// Serve the daemon's page at `/` (off with `--no-web-page`, for those who run AriaNg).
    public var webPage = true

    public init() {}
  }

  private let service: Aria2Service
  private let port: UInt16
  private let socket: URL?
  private let access: Access
  private let limits: Limits
  private let webSockets: WebSocketGate
  private let running = Mutex<[Running]>([])

  /// One listener's application, in a group that can end it gracefully, and its task.
  private struct Running {
    var group: ServiceGroup
    var task: Task<Void, Never>
  }

  /// A server of `service` on `port` (0 for a free one), and on the Unix socket `socket`
  /// when given (its folder should be the owner's alone: calls through it count as the
  /// owner's).
  public init(
    service: Aria2Service, port: UInt16, socket: URL?, access: Access, limits: Limits = Limits()
  ) {
    self.service = service
    self.port = port
    self.socket = socket
    self.access = access
    self.limits = limits
    webSockets = WebSocketGate(limit: limits.webSockets)
  }

  /// Starts serving, until `stop()`, and returns the TCP port it listens on once it does;
  /// throws at once when it cannot listen (the port is taken, say).
  public func start() async throws -> UInt16 {
    let host = access.listenAll ? "0.0.0.0" : "127.0.0.1"
    let listening = try await serve(.hostname(host, port: Int(port)), as: .network)
    if let socket {
      try SocketFile.prepare(socket)
      _ = try await serve(.unixDomainSocket(path: socket.path), as: .owner)
      chmod(socket.path, 0o600)
    }
    return UInt16(listening)
  }

  /// Stops listening and lets every connection end once the request it is answering has its
  /// answer (so that `aria2.shutdown` is answered before the daemon ends); returns once they
  /// have, or after `patience`, whichever comes first, cancelling those left: a client in the
  /// middle of a request line it never finishes would otherwise hold the daemon's stop for as
  /// long as it stays connected.
  public func stop(patience: Duration = .seconds(2)) async {
    let servers = running.withLock { servers in
      defer { servers = [] }
      return servers
    }
    for server in servers { await server.group.triggerGracefulShutdown() }
    let (ended, end) = AsyncStream<Void>.makeStream()
    Task {
      for server in servers { await server.task.value }
      end.yield()
    }
    Task {
      try? await Task.sleep(for: patience)
      end.yield()
    }
    for await _ in ended { break }
    for server in servers { server.task.cancel() }
    if let socket { unlink(socket.path) }
  }

  /// Serves `address` for `caller` and returns its port (0 for a Unix socket) once it listens.
  private func serve(_ address: BindAddress, as caller: Aria2Service.Caller) async throws -> Int {
    let (outcomes, outcome) = AsyncStream<Result<Int, any Error>>.makeStream()
    let routes = RPCRoutes(
      service: service, caller: caller, access: access, limits: limits, webSockets: webSockets
    ).router()
    let webSocketRoutes = routes.buildResponder()
    let bodyTime = TimeAmount(limits.bodyTime)
    let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
      http1: .init(
        additionalChannelHandlers: [BodyTimeGuard(time: bodyTime)],
        idleTimeout: .init(limits.idleTime)),
      ws: .init(
        maxFrameSize: limits.requestBytes,
        extensions: [.nonNegotiatedExtension { MaskedFrames() }], validateUTF8: true))
    let application = Application(
      router: routes,
      server: HTTPServerBuilder { [headTime = limits.headTime] responder in
        GuardedChildChannel(
          inner: HTTP1WebSocketUpgradeChannel(
            responder: responder, webSocketResponder: webSocketRoutes,
            configuration: configuration),
          headTime: headTime)
      },
      configuration: .init(address: address),
      onServerRunning: { channel in outcome.yield(.success(channel.localAddress?.port ?? 0)) },
      logger: Logger(label: "fetcher.daemon", factory: { _ in SwiftLogNoOpLogHandler() }))
    let group = ServiceGroup(services: [application], logger: application.logger)
    let task = Task {
      do {
        try await group.run()
      } catch {
        outcome.yield(.failure(error))
      }
      outcome.finish()
    }
    running.withLock { $0.append(Running(group: group, task: task)) }
    for await first in outcomes { return try first.mapError(RPCServerError.init).get() }
    throw RPCServerError("the server ended before it listened")
  }
}

struct RPCServerError: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) { self.description = description }

  /// `error` in words: a socket's failure as the system says it ("Address already in use").
  init(_ error: any Error) {
    if let error = error as? IOError {
      description = String(cString: strerror(error.errnoCode))
    } else {
      description = "\(error)"
    }
  }
}
