import CounterStore
import CounterStoreLive
import Foundation

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(stateFolder: URL) async throws {
  // snippet: readme
  let store = CounterStore.live(directory: stateFolder)
  let count = try await store.load(CounterStore.timesFetchedKey)
  // end
  _ = count  // the example ends with the value it shows
}
