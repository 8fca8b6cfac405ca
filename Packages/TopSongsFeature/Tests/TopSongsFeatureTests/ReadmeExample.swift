import Foundation
import SongsService
import TopSongsFeature

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(songs: [Song], feedURL: URL) async {
  // snippet: readme
  let model = TopSongsViewModel(service: .succeeding(with: songs), feed: feedURL, limit: 10)
  await model.load()
  for row in model.state().rows { print(row.number, row.song.name, row.priceText) }
  // end
}
