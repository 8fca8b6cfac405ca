import Foundation
import LogAnalysisLive

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(url: URL) throws {
  // snippet: readme
  let options = AnalysisOptions(
    length: 3, sessionGap: 1800, filters: VisitFilters(statuses: [200, 304], excludeBots: true))
  let (partial, _, _) = try LogInput.analyze([url.path], options: options)
  for sequence in partial.ranking(top: 10) { print(sequence.count, sequence.pageTexts) }
  // end
}
