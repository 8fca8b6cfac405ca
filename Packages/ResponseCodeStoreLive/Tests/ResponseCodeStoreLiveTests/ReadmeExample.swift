import Foundation
import ResponseCodeStore
import ResponseCodeStoreLive

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(stateFolder: URL) async throws {
  // snippet: readme
  let store = ResponseCodeStore.live(directory: stateFolder)
  let code = try await store.load(ResponseCodeStore.lastResponseCodeKey)
  // end
  _ = code  // the example ends with the value it shows
}
