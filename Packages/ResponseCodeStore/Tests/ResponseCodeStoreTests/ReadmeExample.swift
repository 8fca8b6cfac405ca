import Foundation
import ResponseCodeStore

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(store: ResponseCodeStore, code: UUID) async throws {
  // snippet: readme
  try await store.save(ResponseCodeStore.lastResponseCodeKey, code)
  // end
}
