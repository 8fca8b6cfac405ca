import Foundation
import NetworkClient
import NetworkClientTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample() async throws {
  // snippet: readme
  let session = StubSession(replies: .json(#"{"next_path": "http://h/p/"}"#))
  let reply = try await session.client.decoded(
    [String: String].self, for: URLRequest(url: URL(string: "http://h")!))
  #expect(session.requestedURLs == ["http://h"])
  // end
  _ = reply  // the example ends with the value it shows
}
