import DownloadClient
import DownloadClientLive
import Foundation
import HTTPClient
import Reachability

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(
  folder: URL, stateFolder: URL, http: HTTPClient, reachability: Reachability
) {
  // snippet: readme
  // http: HTTPClient.live() (HTTPClientLive); reachability: Reachability.network() (ReachabilityLive)
  let client = DownloadClient.live(
    configuration: DownloadConfiguration(outputDirectory: folder),
    stateDirectory: stateFolder, http: http, reachability: reachability)
  // end
  _ = client
}

/// The README's example of a daemon's manager; compiled, not run.
private func remoteExample(url: URL, http: HTTPClient) async throws {
  // snippet: remote
  let daemon = DownloadClient.remote(
    url: URL(string: "http://127.0.0.1:6800/jsonrpc")!, secret: "s3cret", http: http)
  let download = try await daemon.start(DownloadRequest(url: url))
  // end
  _ = download
}
