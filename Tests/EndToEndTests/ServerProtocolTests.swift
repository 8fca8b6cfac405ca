import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The protocol of `server.py`, checked over HTTP.
@Suite(.serialized) struct ServerProtocolTests {
  private func get(_ url: String, host: String? = nil) async throws -> (Int, String) {
    var request = URLRequest(url: URL(string: url)!)
    if let host { request.setValue(host, forHTTPHeaderField: "Host") }
    let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
    return ((response as! HTTPURLResponse).statusCode, String(decoding: data, as: UTF8.self))
  }

  private func json(_ text: String) throws -> [String: String] {
    try JSONDecoder().decode([String: String].self, from: Data(text.utf8))
  }

  @Test func theRootHandsOutAPathOnTheHostAsked() async throws {
    let server = try TestServer()
    let (status, body) = try await get(server.rootURL + "/", host: "example.test:1234")
    #expect(status == 200)
    let next = try #require(try json(body)["next_path"])
    #expect(next.hasPrefix("http://example.test:1234/"))
    #expect(next.hasSuffix("/"))
  }

  @Test func theLatestPathAnswersACodeAndAnOlderOneA400() async throws {
    let server = try TestServer()
    let first = try json(try await get(server.rootURL + "/").1)["next_path"]!
    let second = try json(try await get(server.rootURL + "/").1)["next_path"]!
    let expected = URL(string: second)!.lastPathComponent

    let (oldStatus, oldBody) = try await get(first)
    #expect(oldStatus == 400)
    #expect(
      try json(oldBody) == ["error": "App requested the wrong path, expected: \(expected)"])

    let (status, body) = try await get(second)
    #expect(status == 200)
    let reply = try json(body)
    #expect(reply["path"] == expected)
    #expect(UUID(uuidString: reply["response_code"] ?? "") != nil)
  }

  @Test(arguments: ["/a/b/", "/abc", "/faults/status/99"])
  func otherShapesAre404(path: String) async throws {
    let server = try TestServer()
    #expect(try await get(server.rootURL + path) == (404, "Unexpected path"))
  }

  @Test func malformedRequestsDoNotStopTheServer() async throws {
    let server = try TestServer()
    for garbage in [#"GARBAGE\r\n\r\n"#, #"\x00\xff\xfe\r\n\r\n"#, "GET", #"GET / HTTP/9\r\n\r\n"#]
    {
      let send = Process()
      send.executableURL = URL(fileURLWithPath: "/bin/bash")
      send.arguments = [
        "-c", "exec 3<>/dev/tcp/127.0.0.1/\(server.port); printf '\(garbage)' >&3; exec 3>&-",
      ]
      try send.run()
      await onOwnThread { send.waitUntilExit() }
    }
    #expect(try await get(server.rootURL + "/").0 == 200)
  }
}
