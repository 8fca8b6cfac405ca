import AnalysisReport
import Foundation

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(rows: [ReportData.Row], url: URL) throws {
  // snippet: readme
  let html = HTMLReport.render(
    ReportData(
      inputs: ["access.log"], lines: 1000, malformedLines: 0, firstMalformedLine: nil,
      clients: 40, distinctSequences: 77, timeRange: nil, options: [], length: 3,
      countsClients: false, sequences: rows, flow: Array(rows.prefix(20))))
  try html.write(to: url, atomically: true, encoding: .utf8)
  // end
}
