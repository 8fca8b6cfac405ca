import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import Daemon

/// The time each request's body has, on NIO's embedded channel and its clock.
@Suite struct BodyTimeGuardTests {
  private func channel() throws -> EmbeddedChannel {
    try .connected(with: BodyTimeGuard(time: .seconds(10)))
  }

  private let head = HTTPRequest(method: .post, scheme: nil, authority: "127.0.0.1", path: "/")

  @Test func aBodyPastItsTimeIsAnswered408AndNothingMoreIsRead() throws {
    let channel = try channel()
    try channel.writeInbound(HTTPRequestPart.head(head))
    try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "[")))
    channel.embeddedEventLoop.advanceTime(by: .seconds(9))
    #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil)
    channel.embeddedEventLoop.advanceTime(by: .seconds(1))
    let answer = try #require(try channel.readOutbound(as: HTTPResponsePart.self))
    guard case .head(let response) = answer else {
      Issue.record("\(answer)")
      return
    }
    #expect(response.status == .requestTimeout)
    #expect(response.headerFields[.connection] == "close")
    #expect(try channel.readOutbound(as: HTTPResponsePart.self) == .end(nil))
    // What the client sends after is dropped. (The embedded channel closes at once where a
    // socket closes its output first: `slowBodiesHoldNoPlaceOfOthersAndRunOutOfTime` reads the
    // answer over one.)
    try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "1")))
    #expect(try channel.readInbound(as: HTTPRequestPart.self) == .head(head))
    #expect(try channel.readInbound(as: HTTPRequestPart.self) == .body(ByteBuffer(string: "[")))
    #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil)
  }

  @Test func eachRequestOfAKeptConnectionHasItsOwnTime() throws {
    let channel = try channel()
    for _ in 0..<3 {
      try channel.writeInbound(HTTPRequestPart.head(head))
      channel.embeddedEventLoop.advanceTime(by: .seconds(9))
      try channel.writeInbound(HTTPRequestPart.end(nil))
      channel.embeddedEventLoop.advanceTime(by: .seconds(9))
    }
    #expect(channel.isActive)
    #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil)
  }

  @Test func anAnswerBegunBeforeTheBodyEndedIsNotFollowedBy408() throws {
    let channel = try channel()
    try channel.writeInbound(HTTPRequestPart.head(head))
    let forbidden = HTTPResponse(status: .forbidden)
    try channel.writeOutbound(HTTPResponsePart.head(forbidden))
    channel.embeddedEventLoop.advanceTime(by: .seconds(10))
    #expect(try channel.readOutbound(as: HTTPResponsePart.self) == .head(forbidden))
    #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil)
    #expect(!channel.isActive)
  }
}
