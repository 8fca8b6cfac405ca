import ChecksumTypes
import DownloadClient
import Foundation

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(client: DownloadClient, url: URL) async throws {
  // snippet: readme
  let events = client.events()
  let checksum = FileChecksum(
    "sha-256=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
  let download = try await client.start(DownloadRequest(url: url, expectedChecksum: checksum))
  for await event in events {
    if case .finished(download.id, let file, _) = event { print("saved", file.path) }
  }
  // end
}

/// The README's second example: one file, to its end.
private func readmeDownloadExample(client: DownloadClient, url: URL) async throws {
  // snippet: download
  let done = try await client.download(DownloadRequest(url: url))
  print("saved", done.destination!.path, done.receivedBytes, "bytes")
  // end
}
