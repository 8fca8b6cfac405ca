import DownloadClient
import Foundation

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(client: DownloadClient, url: URL, sha: String) async throws {
  // snippet: readme
  let events = client.events()
  let download = try await client.start(DownloadRequest(url: url, expectedSHA256: sha))
  for await event in events {
    if case .finished(download.id, let file, _) = event { print("saved", file.path) }
  }
  // end
}
