import DownloadRPCService
import Foundation
import Hummingbird
import HummingbirdWebSocket
import ServiceLifecycle

/// `/jsonrpc`'s routes for one kind of caller: POST, a browser's preflight, and the
/// WebSocket upgrade, behind the browsers' guard; on the port, the daemon's page too.
struct RPCRoutes {
  let service: Aria2Service
  let caller: Aria2Service.Caller
  let access: RPCServer.Access
  let limits: RPCServer.Limits
  let webSockets: WebSocketGate

  func router() -> Router<BasicWebSocketRequestContext> {
    let router = Router(context: BasicWebSocketRequestContext.self)
    router.add(middleware: BrowserGuard(access: access))
    router.post("/jsonrpc") { request, _ in try await answer(request) }
    router.on("/jsonrpc", method: .options) { _, _ in Response(status: .noContent) }
    router.ws("/jsonrpc") { inbound, outbound, context in
      try await WebSocketRPC(service: service, caller: caller, limits: limits, gate: webSockets)
        .serve(inbound, outbound, foreign: context.request.comesFromAnotherOrigin)
    }
    if caller == .owner {
      router.get("/notifications") { _, _ in notifications() }
    } else if access.webPage {
      WebPageRoutes.add(to: router)
    }
    return router
  }

  /// The notifications as a stream of lines, for the command line on the owner's socket
  /// (`DownloadClient.remote`, which has no WebSocket: libcurl's is not built in Debian's):
  /// one JSON-RPC notification a line, as WebSocket clients get them, and an empty line every
  /// 15 s, so that neither side takes the quiet for a dead connection. Subscribed before the
  /// head goes out: what happens after the client has the head is in the stream.
  private func notifications() -> Response {
    let subscription = service.notificationStream()
    let (lines, sink) = AsyncStream<ByteBuffer>.makeStream(
      bufferingPolicy: .bufferingNewest(10_000))
    return Response(
      status: .ok, headers: [.contentType: "application/x-ndjson"],
      body: ResponseBody { writer in
        let feeding = Task {
          for await notification in subscription {
            var line = ByteBuffer(bytes: notification)
            line.writeString("\n")
            sink.yield(line)
          }
          sink.finish()
        }
        let beating = Task {
          while true {
            do { try await Task.sleep(for: .seconds(15)) } catch { return }
            sink.yield(ByteBuffer(string: "\n"))
          }
        }
        defer {
          feeding.cancel()
          beating.cancel()
        }
        // A stop ends the stream at once, as it ends the notifications.
        try await withGracefulShutdownHandler {
          for await line in lines { try await writer.write(line) }
        } onGracefulShutdown: {
          sink.finish()
        }
        try await writer.finish(nil)
      })
  }

  /// The answer to a POSTed call or batch: its body is read up to `limits.requestBytes` (413
  /// past it; `BodyTimeGuard` answers 408 past `limits.bodyTime`).
  private func answer(_ request: Request) async throws -> Response {
    let body = try await request.body.collect(upTo: limits.requestBytes)
    guard let answer = await service.answer(Data(body.readableBytesView), from: caller) else {
      return Response(status: .noContent)
    }
    return Response(
      status: .ok, headers: [.contentType: "application/json-rpc"],
      body: .init(byteBuffer: ByteBuffer(bytes: answer)))
  }
}
