import Foundation
import Testing

/// What every command that talks HTTP shares: IPv6 literals, proxies from the environment,
/// and secrets that never reach the state folder nor the output.
@Suite struct NetworkTests {
  private func size(of file: URL) throws -> Int? {
    try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
  }

  @Test func fetchSongsAndDownloadWorkOnAnIPv6LiteralURL() async throws {
    let server = try TestServer(host: "::1")
    #expect(server.rootURL.hasPrefix("http://[::1]:"))
    let state = try StateFolder()
    let fetch = try await state.fetcher.run("fetch", "--root-url", server.rootURL)
    #expect(fetch.status == 0, "\(fetch.standardError)")
    #expect(fetch.outputLines.last == "Times Fetched: 1")
    let songs = try await state.fetcher.run(
      "songs", "--feed", "\(server.rootURL)/feeds/topsongs.xml", "--limit", "1")
    #expect(songs.status == 0, "\(songs.standardError)")
    #expect(songs.outputLines.count == 2)
    let download = try await state.fetcher.run(
      "download", "\(server.rootURL)/files/v6.bin?size=1000", "-d", state.url.path)
    #expect(download.status == 0, "\(download.standardError)")
    #expect(try size(of: state.url.appendingPathComponent("v6.bin")) == 1000)
  }

  @Test func downloadsGoThroughTheProxyInHTTPProxy() async throws {
    // server.py routes by path, so it answers a proxy's absolute-form request itself; the
    // host in the URL does not exist, so only the proxy can have answered.
    let proxy = try TestServer()
    let state = try StateFolder()
    let url = "http://no-such-host.invalid/files/proxied.bin?size=2000"
    let run = try await state.fetcher.run(
      environment: ["http_proxy": proxy.rootURL], "download", url, "-d", state.url.path)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(try size(of: state.url.appendingPathComponent("proxied.bin")) == 2000)
  }

  @Test func passwordsAndSecretHeadersAreSentButNeverStoredNorShown() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let url = server.rootURL.replacingOccurrences(of: "http://", with: "http://me:s3cret@")
    let run = try await state.fetcher.run(
      "download", "\(url)/files/auth.bin?size=1000", "-d", state.url.path, "-H",
      "Cookie: session=c00kie", "-H", "X-Trace: 1", "--json")
    #expect(run.status == 0, "\(run.standardError)")
    // Another URL into the same file: whatever it says of it names the URL.
    let again = try await state.fetcher.run(
      "download", "\(url)/files/auth.bin?size=1001", "-d", state.url.path, "-H",
      "Cookie: session=c00kie")
    #expect(again.standardError.contains("me:***@"))
    let list = try await state.fetcher.run("downloads", "list", "--json")
    #expect(list.standardOutput.contains("me:***@"))
    let shown =
      run.standardOutput + run.standardError + again.standardOutput + again.standardError
      + list.standardOutput
    let stored = try FileManager.default.subpathsOfDirectory(atPath: state.url.path)
      .filter { $0.hasSuffix(".json") || $0.hasSuffix(".jsonl") }
      .map { try String(contentsOf: state.url.appendingPathComponent($0), encoding: .utf8) }
      .joined()
    #expect(!stored.isEmpty)
    for secret in ["s3cret", "c00kie"] {
      #expect(!shown.contains(secret))
      #expect(!stored.contains(secret))
    }
  }

  @Test func badHeaderAndUserOptionsAreRefused() async throws {
    let state = try StateFolder()
    let header = try await state.fetcher.run("download", "http://h/f", "-H", "no colon")
    #expect(header.status == 64)
    #expect(header.standardError.contains("--header takes 'Name: value'"))
    let user = try await state.fetcher.run("download", "http://h/f", "-u", "alice")
    #expect(user.status == 64)
    #expect(user.standardError.contains("--user takes USER:PASSWORD"))
  }
}
