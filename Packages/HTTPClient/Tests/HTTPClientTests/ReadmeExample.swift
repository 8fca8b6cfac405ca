import Foundation
import HTTPClient

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(url: URL, data: Data) async throws {
  // snippet: readme
  let script = HTTPScript([
    .init(headers: ["ETag": "\"v1\""], body: data), .failure(.connect("refused")),
  ])
  let (head, body) = try await script.client.data(for: HTTPRequest(url: url))
  // end
  _ = (body, head)  // the example ends with the value it shows
}
