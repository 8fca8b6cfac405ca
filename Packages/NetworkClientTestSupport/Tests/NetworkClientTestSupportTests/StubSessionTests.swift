import Foundation
import NetworkClient
import NetworkClientTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct StubSessionTests {
  @Test func answersInOrderAndRecordsRequests() async throws {
    let session = StubSession(replies: .json("1"), .json("2", status: 201))
    let first = try await session.client.send(URLRequest(url: URL(string: "http://a/1")!))
    let second = try await session.client.send(URLRequest(url: URL(string: "http://a/2")!))

    #expect(String(decoding: first.0, as: UTF8.self) == "1")
    #expect(String(decoding: second.0, as: UTF8.self) == "2")
    #expect((second.1 as? HTTPURLResponse)?.statusCode == 201)
    #expect(session.requestedURLs == ["http://a/1", "http://a/2"])
  }

  @Test func failsOnceTheRepliesRunOut() async throws {
    let session = StubSession(replies: .json("{}"))
    _ = try await session.client.send(URLRequest(url: URL(string: "http://a/")!))
    await #expect(throws: NetworkError.self) {
      try await session.client.send(URLRequest(url: URL(string: "http://a/again")!))
    }
    #expect(session.requests.count == 2)
  }

  @Test func throwsAGivenError() async throws {
    let error = NetworkError.transport(url: "http://a/", error: .connect("refused"))
    let session = StubSession([.failure(error)])
    await #expect(throws: error) {
      try await session.client.send(URLRequest(url: URL(string: "http://a/")!))
    }
  }
}
