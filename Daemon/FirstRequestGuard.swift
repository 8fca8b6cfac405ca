import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's connection that can become a WebSocket, with what it lacks until its first
/// request is read: its idle timeout starts only once a request's head has been read, and an
/// HTTP error before that (a header past 80 KiB) is answered by nobody. So a connection that
/// sends nothing, or trickles its first head, or sends one too long, stayed open for ever; one
/// descriptor each, for any local program or page.
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
  let inner: Inner
  /// The time a new connection has to send its first request's head.
  let headTime: Duration

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Inner.Value> {
    inner.setup(channel: channel, logger: logger).flatMapThrowing { [headTime] value in
      try channel.pipeline.syncOperations.addHandler(FirstRequestGuard(time: .init(headTime)))
      return value
    }
  }

  func handle(value: Inner.Value, logger: Logger) async {
    await inner.handle(value: value, logger: logger)
  }
}

/// At the end of the pipeline, behind the handler that decides between HTTP and WebSocket:
/// closes the connection unless the first request's head is read within `time`, and answers an
/// error reading it with 431 (a header too long) or 400 before it closes. Whatever passes it
/// once the first head is read (HTTP parts, or a WebSocket's bytes) passes unread.
final class FirstRequestGuard: ChannelInboundHandler, RemovableChannelHandler {
  /// Not read: it passes on whatever the pipeline carries at its place.
  typealias InboundIn = Any
  typealias OutboundOut = HTTPServerResponsePart

  private let time: TimeAmount
  private var deadline: Scheduled<Void>?

  init(time: TimeAmount) { self.time = time }

  func handlerAdded(context: ChannelHandlerContext) {
    let channel = context.channel
    deadline = context.eventLoop.scheduleTask(in: time) { channel.close(promise: nil) }
  }

  func handlerRemoved(context: ChannelHandlerContext) { deadline?.cancel() }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    // Only the first request's head, once read and sorted, gets here first...
    disarm()
    context.fireChannelRead(data)
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    // ...unless it was a WebSocket's upgrade, which is not passed on.
    if event is HTTPServerUpgradeEvents { disarm() }
    context.fireUserInboundEventTriggered(event)
  }

  private func disarm() {
    deadline?.cancel()
    deadline = nil
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard deadline != nil, let error = error as? HTTPParserError else {
      context.fireErrorCaught(error)
      return
    }
    let status: HTTPResponseStatus =
      error == .headerOverflow ? .requestHeaderFieldsTooLarge : .badRequest
    let head = HTTPResponseHead(
      version: .http1_1, status: status,
      headers: ["Connection": "close", "Content-Length": "0"])
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    // The rest of what the client sends is read and dropped until it closes or time is up:
    // closing now could lose the answer to a reset.
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
      channel.close(mode: .output, promise: nil)
    }
  }
}
