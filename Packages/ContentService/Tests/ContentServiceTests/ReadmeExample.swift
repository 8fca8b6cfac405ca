import ContentService
import Foundation

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample() async throws {
  // snippet: readme
  let content = ContentService.succeeding(with: UUID())  // or .unreachable, .failing
  let code = try await content.fetchResponseCode()
  // end
  _ = code  // the example ends with the value it shows
}
