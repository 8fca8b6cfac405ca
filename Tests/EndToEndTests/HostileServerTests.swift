import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Servers and documents that try to get what is not theirs: the user's secrets sent to a host
/// the content names, a wait that never ends.
@Suite(.timeLimit(.minutes(2))) struct HostileServerTests {
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
