import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Servers and documents that try to get what is not theirs: the user's secrets sent to a host
/// the content names, a wait that never ends.
@Suite(.timeLimit(.minutes(10))) struct HostileServerTests {
  /// The requests `server` has seen: each one's path and headers.
  private func seen(by server: TestServer) async throws -> [(
    path: String, headers: [String: String]
  )] {
    let (data, _) = try await URLSession.shared.data(from: URL(string: "\(server.rootURL)/seen")!)
    let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    return list.map { ($0["path"] as? String ?? "", $0["headers"] as? [String: String] ?? [:]) }
  }

  private let secrets = ["-u", "alice:S3CRET", "-H", "Cookie: s=1", "-H", "X-Api-Key: k1"]

  private func expectNoSecrets(in headers: [String: String]) {
    let names = Set(headers.keys.map { $0.lowercased() })
    #expect(names.isDisjoint(with: ["authorization", "cookie", "x-api-key"]), "\(headers)")
  }

  private func expectSecrets(in headers: [String: String]) {
    let names = Set(headers.keys.map { $0.lowercased() })
    #expect(names.isSuperset(of: ["authorization", "cookie", "x-api-key"]), "\(headers)")
  }

  @Test func fetchSendsTheSecretsOnlyToTheRootItsUserNamed() async throws {
    let (named, other) = try (
      TestServer(script: Paths.lyingServer), TestServer(script: Paths.lyingServer)
    )
    let state = try StateFolder()
    let to = "\(other.rootURL)/code/".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    let run = try await state.fetcher.start(
      ["fetch", "--root-url", "\(named.rootURL)/next?to=\(to)"] + secrets
    ).wait()
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.contains("0f0e0d0c-0b0a-4908-8706-050403020100"))
    let (asked, answered) = try await (seen(by: named), seen(by: other))
    #expect(asked.map(\.path) == ["/next"])
    #expect(answered.map(\.path) == ["/code/"])
    expectSecrets(in: asked[0].headers)
    expectNoSecrets(in: answered[0].headers)
  }

  @Test func songsArtOnAnotherHostGetsNoSecrets() async throws {
    let (feed, art) = try (
      TestServer(script: Paths.lyingServer), TestServer(script: Paths.lyingServer)
    )
    let state = try StateFolder()
    let base = art.rootURL.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    let run = try await state.fetcher.start(
      ["songs", "--feed", "\(feed.rootURL)/feed?art=\(base)", "--art", state.url.path] + secrets
    ).wait()
    #expect(run.status == 0, "\(run.standardError)")
    #expect(FileManager.default.fileExists(atPath: state.url.appendingPathComponent("1.png").path))
    let (feedRequests, artRequests) = try await (seen(by: feed), seen(by: art))
    expectSecrets(in: try #require(feedRequests.first).headers)
    #expect(artRequests.map(\.path) == ["/art.png"])
    expectNoSecrets(in: try #require(artRequests.first).headers)
  }

  /// `text` as a query value.
  private func escaped(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
  }

  /// A Metalink the user names on one server (or one it redirects to on the other) whose file
  /// is on the other: only the server named gets the secrets.
  @Test(arguments: [false, true])
  func aMetalinksFilesOnAnotherHostGetNoSecrets(redirected: Bool) async throws {
    let (named, other) = try (
      TestServer(script: Paths.lyingServer), TestServer(script: Paths.lyingServer)
    )
    let state = try StateFolder()
    let file = escaped("\(other.rootURL)/name?n=f.bin")
    let metalink =
      redirected
      ? "\(named.rootURL)/redirect?to=\(escaped("\(other.rootURL)/metalink?file=\(file)"))"
      : "\(named.rootURL)/metalink?file=\(file)"
    let run = try await state.fetcher.run(
      ["download", "-M", metalink, "-d", state.url.path] + secrets)
    #expect(run.status == 0, "\(run.standardError)")
    let (asked, answered) = try await (seen(by: named), seen(by: other))
    #expect(asked.map(\.path) == [redirected ? "/redirect" : "/metalink"])
    expectSecrets(in: asked[0].headers)
    #expect(answered.map(\.path) == (redirected ? ["/metalink", "/name"] : ["/name"]))
    for request in answered { expectNoSecrets(in: request.headers) }
  }

  @Test func aMetalinksFilesOnItsOwnOriginGetTheSecrets() async throws {
    let server = try TestServer(script: Paths.lyingServer)
    let state = try StateFolder()
    let metalink = "\(server.rootURL)/metalink?file=\(escaped("\(server.rootURL)/name?n=f.bin"))"
    let run = try await state.fetcher.run(
      ["download", "-M", metalink, "-d", state.url.path] + secrets)
    #expect(run.status == 0, "\(run.standardError)")
    let requests = try await seen(by: server)
    #expect(requests.map(\.path) == ["/metalink", "/name"])
    for request in requests { expectSecrets(in: request.headers) }
  }

  @Test func cookieDataGoesOnlyToTheOriginItsUserNamed() async throws {
    let (named, other) = try (
      TestServer(script: Paths.lyingServer), TestServer(script: Paths.lyingServer)
    )
    let state = try StateFolder()
    let to = escaped("\(other.rootURL)/code/")
    let run = try await state.fetcher.run(
      "fetch", "--root-url", "\(named.rootURL)/next?to=\(to)", "-b", "c=SECRET", "-H", "Cookie: h=1"
    )
    #expect(run.status == 0, "\(run.standardError)")
    let (asked, answered) = try await (seen(by: named), seen(by: other))
    #expect(asked.first?.headers["Cookie"] == "h=1; c=SECRET")
    #expect(answered.first.map { $0.headers["Cookie"] == nil } == true, "\(answered)")
  }

  @Test func thePasswordIsBlankedInTheProcessArgumentsButSent() async throws {
    let server = try TestServer(script: Paths.lyingServer)
    let state = try StateFolder()
    let running = try state.fetcher.start([
      "fetch", "--root-url", "\(server.rootURL)/continue-forever", "-u", "alice:S3CRET",
      "--max-time", "600",
    ])
    // The request arrives once the arguments were read (and blanked).
    while try await seen(by: server).isEmpty { await Task.yield() }
    let shown = try Data(
      contentsOf: URL(fileURLWithPath: "/proc/\(running.process.processIdentifier)/cmdline"))
    let arguments = shown.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    #expect(arguments.contains("alice:"), "\(arguments)")
    #expect(!arguments.joined().contains("S3CRET"))
    #expect(!arguments.joined().contains("*"), "\(arguments)")
    await running.kill()
    let sent = try await seen(by: server).first?.headers["Authorization"]
    #expect(sent == "Basic " + Data("alice:S3CRET".utf8).base64EncodedString())
  }

  @Test func songsArtOnTheFeedsOwnOriginGetsThem() async throws {
    let server = try TestServer(script: Paths.lyingServer)
    let state = try StateFolder()
    let base = server.rootURL.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    let run = try await state.fetcher.start(
      ["songs", "--feed", "\(server.rootURL)/feed?art=\(base)", "--art", state.url.path] + secrets
    ).wait()
    #expect(run.status == 0, "\(run.standardError)")
    let art = try await seen(by: server).filter { $0.path == "/art.png" }
    expectSecrets(in: try #require(art.first).headers)
  }
}

/// Servers that answer forever without answering: interim replies are not progress, and
/// `fetch` and `songs` have a total deadline.
@Suite(.timeLimit(.minutes(10))) struct EndlessAnswerTests {
  @Test func endless100ContinueEndsAFetchAtItsMaxTime() async throws {
    let server = try TestServer(script: Paths.lyingServer)
    let state = try StateFolder()
    let run = try await state.fetcher.run(
      "fetch", "--root-url", "\(server.rootURL)/continue-forever", "--max-time", "2")
    #expect(run.status == 1)
    #expect(run.standardError.contains("no complete answer within 2 s"), "\(run.standardError)")
  }

  @Test func endless100ContinueIsSilenceToADownload() async throws {
    let server = try TestServer(script: Paths.lyingServer)
    let state = try StateFolder()
    let run = try await state.fetcher.run(
      "download", "\(server.rootURL)/continue-forever", "-d", state.url.path, "--timeout", "1",
      "--retries", "0")
    #expect(run.status == 2)
    #expect(run.standardError.contains("no data for 1 s"), "\(run.standardError)")
  }
}

/// Documents whose entities would expand without end: refused at once, saying why.
@Suite(.timeLimit(.minutes(10))) struct EntityExpansionTests {
  private let beyondTheLimit = "the entities expand the document beyond the limit"

  @Test func aFeedOfOneEntityReferencedOftenIsRefused() async throws {
    let server = try TestServer(script: Paths.lyingServer)
    let state = try StateFolder()
    let run = try await state.fetcher.run("songs", "--feed", "\(server.rootURL)/quadratic-feed")
    #expect(run.status == 1)
    #expect(run.standardError.contains(beyondTheLimit), "\(run.standardError)")
    #expect(run.standardOutput.isEmpty)
  }

  @Test func aMetalinkOfOneEntityReferencedOftenIsRefused() async throws {
    let server = try TestServer(script: Paths.lyingServer)
    let state = try StateFolder()
    let run = try await state.fetcher.run(
      "download", "-M", "\(server.rootURL)/quadratic.meta4", "-d", state.url.path)
    #expect(run.status == 1)
    #expect(run.standardError.contains(beyondTheLimit), "\(run.standardError)")
  }
}

/// Text from outside (an error body, a feed, an input file) never reaches the terminal raw:
/// control characters are shown as `\xHH`.
@Suite(.timeLimit(.minutes(10))) struct EscapeTests {
  /// Control bytes a terminal acts on: C0 but LF, DEL, and C1 in UTF-8.
  private func expectNoControls(_ text: String) {
    let raw = text.unicodeScalars.filter {
      ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
    }
    #expect(raw.isEmpty, "raw controls in: \(text.debugDescription)")
  }

  @Test func anErrorBodyIsShownEscaped() async throws {
    let server = try TestServer(script: Paths.lyingServer)
    let state = try StateFolder()
    let run = try await state.fetcher.run("fetch", "--root-url", "\(server.rootURL)/escapes")
    #expect(run.status == 1)
    #expect(
      run.standardError.contains(#"answered HTTP 404: not here \x1B]52;c;b3duZWQ=\x07\x1B[2J"#))
    expectNoControls(run.standardError + run.standardOutput)
  }

  @Test func songNamesAreShownEscaped() async throws {
    let server = try TestServer(script: Paths.lyingServer)
    let state = try StateFolder()
    let run = try await state.fetcher.run("songs", "--feed", "\(server.rootURL)/escape-feed")
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.contains(#"Song\x85[2J"#))
    #expect(run.standardOutput.contains(#"Art\x9B31mist"#))
    expectNoControls(run.standardError + run.standardOutput)
  }

  @Test func aBadInputFileLineIsNamedWithItsFileAndNumber() async throws {
    let state = try StateFolder()
    let list = state.url.appendingPathComponent("list.txt")
    try Data("http://127.0.0.1:9/a\n\u{1B}]0;owned\u{07}\n".utf8).write(to: list)
    let run = try await state.fetcher.run("download", "-i", list.path, "-d", state.url.path)
    #expect(run.status == 1)
    #expect(
      run.standardError
        == "fetcher: \(list.path): line 2: not a URL: \\x1B]0;owned\\x07\n")
  }
}
