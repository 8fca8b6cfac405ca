import Foundation
import XMLPathParser

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(feedURL: URL) throws {
  // snippet: readme
  let parser = try XMLPathParser([
    "feed.entry.im:name": "name", "feed.entry.link@rel=alternate": "page",
  ])
  try parser.parse(Data(contentsOf: feedURL)) { match in
    print(match.id, match.text, match.attributes["href"] ?? "")
  }
  // end
}
