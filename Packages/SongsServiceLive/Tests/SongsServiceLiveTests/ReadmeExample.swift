import Foundation
import HTTPClient
import NetworkClient
import SongsService
import SongsServiceLive

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(http: HTTPClient) async throws {
  // snippet: readme
  let service = SongsService.live(client: .live(http: http))  // http: HTTPClient.live()
  let feed = try await service.topSongs(URL(string: "http://localhost:8080/feeds/topsongs.xml")!)
  // end
  _ = feed  // the example ends with the value it shows
}
