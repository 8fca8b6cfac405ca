import Foundation
import HTTPClient
import LogAnalysisLive
import RemoteLogs

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(http: HTTPClient, options: AnalysisOptions) async throws {
  // snippet: readme
  // http: HTTPClient.live() (HTTPClientLive) in an app
  let url = URL(string: "https://logs.example.com/access.log")!
  let log = try await HTTPRangeReader.open(url, http: http, headers: [:]) { warning in
    print("warning: \(warning)")
  }
  // The first half of the log; another machine reads the second.
  let half = 0..<(log.size / 2)
  let (partial, _, _) = try await HTTPRangeReader.onOwnThread {
    try LogInput.analyze(log, named: url.absoluteString, byteRange: half, options: options)
  }
  // end
  _ = partial
}
