import ContentService
import ContentServiceLive
import Foundation
import HTTPClient
import NetworkClient

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(http: HTTPClient) async throws {
  // snippet: readme
  // http: HTTPClient.live() from HTTPClientLive in an app, an HTTPScript in tests
  let content = ContentService.live(rootURL: "http://localhost:8000", client: .live(http: http))
  let code = try await content.fetchResponseCode()
  // end
  _ = code  // the example ends with the value it shows
}
