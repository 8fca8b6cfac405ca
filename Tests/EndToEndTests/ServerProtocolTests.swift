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

  @Test func aRangeWhoseLastByteComesBeforeItsFirstIsUnsatisfiable() async throws {
    let server = try TestServer()
    var request = URLRequest(url: URL(string: server.rootURL + "/files/r.bin?size=100")!)
    request.setValue("bytes=5-2", forHTTPHeaderField: "Range")
    let (_, response) = try await URLSession(configuration: .ephemeral).data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    #expect(http.statusCode == 416)
    #expect(http.value(forHTTPHeaderField: "Content-Range") == "bytes */100")
  }

  @Test(arguments: ["/files/big.bin?size=17179869184", "/sha256/big.bin?size=17179869184"])
  func sizesBeyondAGibibyteAreRefusedAtOnce(path: String) async throws {
    let server = try TestServer()
    let (status, body) = try await get(server.rootURL + path)
    #expect(status == 400)
    #expect(body == "size must be 0 to 1073741824")
  }

  @Test func itsLogShowsControlCharactersEscapedAndItsCachesAreBounded() async throws {
    let check = """
      import server
      assert server.printable("GET /\\x1b]0;owned\\x07\\x9b2J") == "GET /\\\\x1b]0;owned\\\\x07\\\\x9b2J"
      files = server.FileStore()
      for index in range(300):
          files.sha256(server.seed_of(f"n{index}", 1), 10)
      assert len(files._blocks._entries) == 64, len(files._blocks._entries)
      assert files.sha256(server.seed_of("n299", 1), 10) == files.sha256(server.seed_of("n299", 1), 10)
      print("ok")
      """
    let run = try await runTool(["/usr/bin/env", "python3", "-c", check])
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.outputText == "ok\n")
  }

  /// A log of millions of lines is written as it is sent, a batch at a time: the server's
  /// memory does not grow with it, and its length is known without writing it.
  @Test func aLongLogIsStreamedInFlatMemory() async throws {
    let check = """
      import io, resource, server
      class Sink:
          written = 0
          def write(self, data):
              self.written += len(data)
      for count in (0, 1, 10, 11, 12345):
          copy = io.BytesIO()
          server.write_log(count, copy)
          assert len(copy.getvalue()) == server.log_length(count), count
      before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
      sink = Sink()
      server.write_log(2_000_000, sink)
      grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
      assert sink.written == server.log_length(2_000_000) > 140_000_000, sink.written
      assert grown < 50_000, f"{grown} KB"
      print("ok")
      """
    let run = try await runTool(["/usr/bin/env", "python3", "-c", check])
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.outputText == "ok\n")
    let server = try TestServer()
    let (status, body) = try await get(server.rootURL + "/logs/a.log?lines=12")
    #expect(status == 200)
    #expect(body.split(separator: "\n").count == 12)
  }

  @Test func aFileNameWithALineBreakIsRefusedNotSentAsAHeader() async throws {
    let server = try TestServer()
    var request = URLRequest(
      url: URL(string: server.rootURL + "/files/f.bin?size=10&filename=a%0D%0AX-Evil:%201")!)
    request.httpMethod = "GET"
    let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    #expect(http.statusCode == 400)
    #expect(http.value(forHTTPHeaderField: "X-Evil") == nil)
    #expect(String(decoding: data, as: UTF8.self) == "filename must not hold control characters")
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

/// The `/files` route of `server.py`, which the download manager's tests rely on.
@Suite(.serialized) struct ServerFilesTests {
  private func get(_ url: String, headers: [String: String] = [:]) async throws -> (
    HTTPURLResponse, Data
  ) {
    var request = URLRequest(url: URL(string: url)!)
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
    return (response as! HTTPURLResponse, data)
  }

  @Test func servesDeterministicContentWithValidators() async throws {
    let server = try TestServer()
    let url = server.rootURL + "/files/a.bin?size=100000"
    let (response, data) = try await get(url)
    #expect(response.statusCode == 200)
    #expect(data.count == 100_000)
    #expect(response.value(forHTTPHeaderField: "Accept-Ranges") == "bytes")
    #expect(response.value(forHTTPHeaderField: "ETag") != nil)
    #expect(response.value(forHTTPHeaderField: "Last-Modified") != nil)
    #expect(try await get(url).1 == data)
    let sha = String(
      decoding: try await get(server.rootURL + "/sha256/a.bin?size=100000").1, as: UTF8.self)
    #expect(response.value(forHTTPHeaderField: "X-Content-SHA256") == sha)
    #expect(sha.count == 64)
  }

  @Test func answersRangesWith206Or416() async throws {
    let server = try TestServer()
    let url = server.rootURL + "/files/a.bin?size=1000"
    let whole = try await get(url).1
    let (partial, tail) = try await get(url, headers: ["Range": "bytes=600-"])
    #expect(partial.statusCode == 206)
    #expect(partial.value(forHTTPHeaderField: "Content-Range") == "bytes 600-999/1000")
    #expect(tail == whole.suffix(400))
    let (beyond, _) = try await get(url, headers: ["Range": "bytes=1000-"])
    #expect(beyond.statusCode == 416)
    #expect(beyond.value(forHTTPHeaderField: "Content-Range") == "bytes */1000")
  }

  @Test func aStaleIfRangeGetsTheWholeFile() async throws {
    let server = try TestServer()
    let url = server.rootURL + "/files/a.bin?size=1000"
    let (response, data) = try await get(
      url, headers: ["Range": "bytes=600-", "If-Range": "\"old\""])
    #expect(response.statusCode == 200)
    #expect(data.count == 1000)
  }

  @Test func failFirstAnswers503WithRetryAfter() async throws {
    let server = try TestServer()
    let url = server.rootURL + "/files/a.bin?size=10&fail_first=2&retry_after=7"
    for _ in 0..<2 {
      let (response, _) = try await get(url)
      #expect(response.statusCode == 503)
      #expect(response.value(forHTTPHeaderField: "Retry-After") == "7")
    }
    #expect(try await get(url).0.statusCode == 200)
  }

  @Test func changeEtagAfterChangesTheFile() async throws {
    let server = try TestServer()
    let url = server.rootURL + "/files/a.bin?size=100&change_etag_after=1"
    let (first, firstData) = try await get(url)
    let (second, secondData) = try await get(url)
    #expect(first.value(forHTTPHeaderField: "ETag") != second.value(forHTTPHeaderField: "ETag"))
    #expect(firstData != secondData)
  }

  @Test func ignoreRangeAnswers200() async throws {
    let server = try TestServer()
    let (response, data) = try await get(
      server.rootURL + "/files/a.bin?size=100&ignore_range=1", headers: ["Range": "bytes=50-"])
    #expect(response.statusCode == 200)
    #expect(data.count == 100)
  }
}

/// The `/feeds` and `/art` routes of `server.py`, for `fetcher songs`.
@Suite struct ServerSongsTests {
  private func get(_ url: String) async throws -> (HTTPURLResponse, Data) {
    let (data, response) = try await URLSession(configuration: .ephemeral).data(
      from: URL(string: url)!)
    return (response as! HTTPURLResponse, data)
  }

  private func entries(_ data: Data) -> Int {
    String(decoding: data, as: UTF8.self).components(separatedBy: "<entry>").count - 1
  }

  @Test func servesATopSongsFeed() async throws {
    let server = try TestServer()
    let (response, feed) = try await get(server.rootURL + "/feeds/topsongs.xml")
    #expect(response.statusCode == 200)
    #expect(
      String(decoding: feed, as: UTF8.self).contains(#"xmlns:im="http://itunes.apple.com/rss""#))
    #expect(entries(feed) == 25)
    #expect(entries(try await get(server.rootURL + "/feeds/topsongs.xml?entries=40").1) == 40)
    #expect(try await get(server.rootURL + "/feeds/topsongs.xml?entries=5000").0.statusCode == 400)
  }

  @Test func servesSquarePNGs() async throws {
    let server = try TestServer()
    let (response, data) = try await get(server.rootURL + "/art/1440000000-60.png")
    #expect(response.value(forHTTPHeaderField: "Content-Type") == "image/png")
    #expect(data.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    #expect(data[16..<24] == Data([0, 0, 0, 60, 0, 0, 0, 60]))
    #expect(try await get(server.rootURL + "/art/1440000000-0.png").0.statusCode == 404)
    #expect(try await get(server.rootURL + "/art/1440000000-999.png").0.statusCode == 404)
  }
}
