import Foundation
import HTTPClient
import NetworkClient

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(http: HTTPClient, url: URL) async throws {
  // snippet: readme
  struct Reply: Decodable { var name: String }
  let client = NetworkClient.live(http: http)  // http: HTTPClient.live() in an app
  let reply = try await client.decoded(Reply.self, for: URLRequest(url: url))
  // end
  _ = reply  // the example ends with the value it shows
}
