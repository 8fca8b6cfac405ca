import Foundation
import LogAnalysisFeature
import LogAnalysisLive

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(url: URL) throws {
  // snippet: readme
  let (partial, bytes, _) = try LogInput.analyze([url.path], options: AnalysisOptions())
  let screen = AnalysisScreen(partial, top: 10)
  for row in screen.rows { print(row.rank, row.count, row.shareText, row.sequenceText) }
  print(screen.summary(bytes: bytes, elapsed: .seconds(1)))
  let json = try JSONEncoder().encode(AnalysisResult(screen))  // what `analyze --json` prints
  // end
  _ = json
}
