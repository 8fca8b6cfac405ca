import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Gives each request `time` from its head to its body's end, however slowly the body
/// trickles: past it, the client gets 408 (unless its answer has begun) and the connection is
/// closed. On the event loop, one timer a request: the answer's task never waits on a clock.
final class BodyTimeGuard: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  private let time: TimeAmount
  private var deadline: Scheduled<Void>?
  /// Whether the current request's answer has begun.
  private var answering = false
  /// Whether time ran out: nothing more is read.
  private var expired = false

  init(time: TimeAmount) { self.time = time }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !expired else { return }
    switch unwrapInboundIn(data) {
    case .head:
      answering = false
      deadline = context.eventLoop.assumeIsolated().scheduleTask(in: time) { [self] in
        expire(context: context)
      }
    case .body: break
    case .end:
      disarm()
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if case .head = unwrapOutboundIn(data) { answering = true }
    context.write(data, promise: promise)
  }

  func handlerRemoved(context: ChannelHandlerContext) { disarm() }

  func channelInactive(context: ChannelHandlerContext) {
    disarm()
    context.fireChannelInactive()
  }

  private func disarm() {
    deadline?.cancel()
    deadline = nil
  }

  /// Answers 408 where no answer has begun, then closes: first its output, so that the
  /// answer is not lost to a reset while the client still sends, then all of it once the
  /// client has had `time` more to read the answer.
  private func expire(context: ChannelHandlerContext) {
    expired = true
    deadline = nil
    let channel = context.channel
    guard !answering else {
      channel.close(promise: nil)
      return
    }
    let head = HTTPResponse(
      status: .requestTimeout, headerFields: [.connection: "close", .contentLength: "0"])
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
      channel.close(mode: .output, promise: nil)
    }
    channel.eventLoop.scheduleTask(in: time) { channel.close(promise: nil) }
  }
}
