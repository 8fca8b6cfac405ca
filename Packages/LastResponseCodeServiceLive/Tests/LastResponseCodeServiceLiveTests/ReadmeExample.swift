import Foundation
import LastResponseCodeService
import LastResponseCodeServiceLive
import ResponseCodeStore

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample() async throws {
  // snippet: readme
  // ResponseCodeStore.live(directory:) is in ResponseCodeStoreLive; any ResponseCodeStore does.
  let last = LastResponseCodeService.live(store: .inMemory())
  try await last.update(UUID())
  // end
}
