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
