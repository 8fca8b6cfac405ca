import Foundation
import HTTPClient
import HTTPClientLive

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(url: URL, write: @escaping @Sendable (Data) -> Bool) async throws {
  // snippet: readme
  let http = HTTPClient.live(configuration: HTTPConfiguration(caFile: "ca.pem"))
  try await http.stream(
    HTTPRequest(url: url), HTTPReceiver(head: { $0.status == 200 }, body: { write($0) }))
  // end
}
