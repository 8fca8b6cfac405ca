import Foundation
import SongsService

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample() async throws {
  // snippet: readme
  let songs = try await SongsService.succeeding(with: [Song(id: "1", name: "A", artist: "B")])
    .topSongs(URL(string: "http://localhost:8080/feeds/topsongs.xml")!).songs
  // end
  _ = songs  // the example ends with the value it shows
}
