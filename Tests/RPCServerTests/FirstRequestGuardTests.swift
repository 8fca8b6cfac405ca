import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import Daemon

/// The guard of a connection's first request, on NIO's embedded channel and its clock.
@Suite struct FirstRequestGuardTests {
  private func channel() throws -> EmbeddedChannel {
    try .connected(with: FirstRequestGuard(time: .seconds(10)))
  }

  private let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/jsonrpc")

  @Test func aConnectionWithoutAHeadIsClosedWhenItsTimeIsUp() throws {
    let channel = try channel()
    channel.embeddedEventLoop.advanceTime(by: .seconds(9))
    #expect(channel.isActive)
    channel.embeddedEventLoop.advanceTime(by: .seconds(1))
    #expect(!channel.isActive)
  }

  @Test func aHeadReadInTimeKeepsItOpen() throws {
    let channel = try channel()
    try channel.writeInbound(HTTPServerRequestPart.head(head))
    channel.embeddedEventLoop.advanceTime(by: .seconds(3600))
    #expect(channel.isActive)
    #expect(try channel.readInbound(as: HTTPServerRequestPart.self) == .head(head))
  }

  @Test func aWebSocketsUpgradeKeepsItOpen() throws {
    let channel = try channel()
    channel.pipeline.fireUserInboundEventTriggered(
      HTTPServerUpgradeEvents.upgradeComplete(toProtocol: "websocket", upgradeRequest: head))
    channel.embeddedEventLoop.advanceTime(by: .seconds(3600))
    #expect(channel.isActive)
  }

  @Test func aHeadTooLongIsAnswered431AndOutputClosed() throws {
    let channel = try channel()
    channel.pipeline.fireErrorCaught(HTTPParserError.headerOverflow)
    let answer = try #require(try channel.readOutbound(as: HTTPServerResponsePart.self))
    guard case .head(let response) = answer else {
      Issue.record("\(answer)")
      return
    }
    #expect(response.status == .requestHeaderFieldsTooLarge)
    #expect(response.headers["Connection"] == ["close"])
    #expect(try channel.readOutbound(as: HTTPServerResponsePart.self) == .end(nil))
  }
}
