import Foundation
import Testing

/// `fetcher download` against nginx: a real server's ranges, validators and 304 answers.
@Suite(.serialized, .timeLimit(.minutes(10))) struct NginxDownloadTests {
  private func bytes(_ count: Int, seed: UInt8) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) ^ seed })
  }

  @Test func splitFourWaysAgainstALimitedNginx() async throws {
    let body = bytes(12_000_000, seed: 3)
    let nginx = try NginxServer(files: ["big.iso": body], rate: "4m")
    let state = try StateFolder()
    let file = state.url.appendingPathComponent("big.iso")
    try body.write(to: state.url.appendingPathComponent("expected"))
    let expected = try await sha256(of: state.url.appendingPathComponent("expected"))
    let run = try await state.fetcher.run(
      "download", "\(nginx.rootURL)/big.iso", "-d", state.url.path, "-s", "4", "--sha256",
      expected, "-v")
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains("in 4 segments"))
    #expect(try Data(contentsOf: file) == body)
  }

  @Test func ifChangedAgainstNginx() async throws {
    let nginx = try NginxServer(files: ["feed.xml": bytes(5000, seed: 1)])
    let state = try StateFolder()
    let url = "\(nginx.rootURL)/feed.xml"
    let file = state.url.appendingPathComponent("feed.xml")
    let first = try await state.fetcher.run("download", url, "-d", state.url.path)
    #expect(first.status == 0, "\(first.standardError)")
    let unchanged = try await state.fetcher.run(
      "download", url, "-d", state.url.path, "--if-changed")
    #expect(unchanged.status == 0, "\(unchanged.standardError)")
    #expect(unchanged.standardOutput.contains("done, unchanged"))

    // Another size: nginx's ETag (time and size) changes even within the same second.
    let changed = bytes(6000, seed: 2)
    try nginx.replace("feed.xml", with: changed)
    let again = try await state.fetcher.run(
      "download", url, "-d", state.url.path, "--if-changed")
    #expect(again.status == 0, "\(again.standardError)")
    #expect(!again.standardOutput.contains("unchanged"))
    #expect(try Data(contentsOf: file) == changed)
  }
}
