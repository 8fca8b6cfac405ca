import Foundation
import LastResponseCodeService

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample() async throws {
  // snippet: readme
  let last = LastResponseCodeService.inMemory()
  try await last.update(UUID())
  // end
}
