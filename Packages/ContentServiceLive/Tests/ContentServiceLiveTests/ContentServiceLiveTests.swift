import ContentService
import ContentServiceLive
import Foundation
import NetworkClient
import NetworkClientTestSupport
import TestClocks
import Testing

private let code = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
private let root = StubReply.json(#"{"next_path": "http://server.test/abc/"}"#)
private let answer = StubReply.json(#"{"path": "abc", "response_code": "\#(code.uuidString)"}"#)
private let wrongPath = StubReply.json(
  #"{"error": "App requested the wrong path, expected: xyz"}"#, status: 400)

private func service(_ session: StubSession, rootURL: String = "http://server.test")
  -> ContentService
{
  .live(rootURL: rootURL, client: session.client, clock: ImmediateClock())
}

@Suite struct ContentServiceLiveTests {
  @Test func fetchesTheRootThenTheNextPath() async throws {
    let session = StubSession(replies: root, answer)
    #expect(try await service(session).fetchResponseCode() == code)
    #expect(session.requestedURLs == ["http://server.test", "http://server.test/abc/"])
    #expect(
      session.requests.allSatisfy { $0.value(forHTTPHeaderField: "Accept") == "application/json" })
  }

  @Test(arguments: ["", "not a url", "ftp://server.test", "server.test/path", "http://"])
  func anInvalidRootURLIsItsOwnErrorAndSendsNothing(rootURL: String) async throws {
    let session = StubSession(replies: root, answer)
    await #expect(throws: ContentServiceError.invalidRootURL(rootURL)) {
      try await service(session, rootURL: rootURL).fetchResponseCode()
    }
    #expect(session.requests.isEmpty)
  }

  @Test func camelCaseKeysFailToDecode() async throws {
    let session = StubSession(replies: .json(#"{"nextPath": "http://server.test/abc/"}"#))
    await #expect {
      try await service(session).fetchResponseCode()
    } throws: { error in
      guard case .decoding(_, "NextPath", let reason) = error as? NetworkError else { return false }
      return reason == #"missing key "next_path""#
    }
    #expect(session.requests.count == 1)
  }

  @Test func camelCaseResponseCodeFailsToDecode() async throws {
    let session = StubSession(
      replies: root, .json(#"{"path": "abc", "responseCode": "\#(code.uuidString)"}"#))
    await #expect(throws: NetworkError.self) { try await service(session).fetchResponseCode() }
  }

  /// A server in trouble (503) or a dropped connection may heal, as the download manager
  /// also holds: the exchange is tried again.
  @Test func aFailureThatMayHealIsRetriedAsAWholeExchange() async throws {
    let busy = StubReply(status: 503, body: Data("busy".utf8))
    let dropped = NetworkError.transport(
      url: "http://server.test/abc/", error: .connectionLost("reset"))
    let session = StubSession(
      [.success(busy), .success(root), .failure(dropped)] + [
        .success(root), .success(answer),
      ])
    #expect(try await service(session).fetchResponseCode() == code)
    #expect(session.requests.count == 5)
  }

  @Test func a503EveryTimeFailsAfterTheRetries() async throws {
    let busy = StubReply(status: 503, body: Data("busy".utf8))
    let session = StubSession(replies: busy, busy, busy, busy, root, answer)
    await #expect(
      throws: NetworkError.unacceptableStatus(
        url: "http://server.test", status: 503, bodyExcerpt: "busy")
    ) {
      try await service(session).fetchResponseCode()
    }
    #expect(session.requests.count == 4)
  }

  @Test func aFailureThatCannotHealOnTheSecondCallIsReturnedAtOnce() async throws {
    let untrusted = NetworkError.transport(
      url: "http://server.test/abc/", error: .tlsCertificate("self-signed"))
    let session = StubSession([.success(root), .failure(untrusted), .success(root)])
    await #expect(throws: untrusted) { try await service(session).fetchResponseCode() }
    #expect(session.requests.count == 2)
  }

  @Test func aWrongPathIsRetriedAsAWholeExchange() async throws {
    let session = StubSession(replies: root, wrongPath, root, wrongPath, root, answer)
    #expect(try await service(session).fetchResponseCode() == code)
    #expect(
      session.requestedURLs == [
        "http://server.test", "http://server.test/abc/",
        "http://server.test", "http://server.test/abc/",
        "http://server.test", "http://server.test/abc/",
      ])
  }

  @Test func aWrongPathIsRetriedThreeTimesThenReturned() async throws {
    let session = StubSession(
      replies: root, wrongPath, root, wrongPath, root, wrongPath, root, wrongPath, root, answer)
    await #expect {
      try await service(session).fetchResponseCode()
    } throws: { error in
      (error as? NetworkError)?.status == 400
        && "\(error)".contains("App requested the wrong path")
    }
    #expect(session.requests.count == 8)
  }

  @Test func retriesPauseOnTheInjectedClock() async throws {
    let session = StubSession(replies: root, wrongPath, root, wrongPath, root, answer)
    let clock = ImmediateClock()
    _ = try await ContentService.live(
      rootURL: "http://server.test", client: session.client, clock: clock
    ).fetchResponseCode()
    // Two pauses: 10 to 50 ms after the first wrong path, 20 to 100 ms after the second.
    #expect((Duration.milliseconds(30)...Duration.milliseconds(150)).contains(clock.now.offset))
  }

  @Test func anInvalidNextPathIsItsOwnError() async throws {
    let session = StubSession(replies: .json(#"{"next_path": "abc"}"#))
    await #expect(throws: ContentServiceError.invalidNextPath("abc")) {
      try await service(session).fetchResponseCode()
    }
  }

  @Test func otherClientErrorsOnTheSecondCallAreNotRetried() async throws {
    let session = StubSession(replies: root, StubReply(status: 404))
    await #expect(throws: NetworkError.self) { try await service(session).fetchResponseCode() }
    #expect(session.requests.count == 2)
  }
}
