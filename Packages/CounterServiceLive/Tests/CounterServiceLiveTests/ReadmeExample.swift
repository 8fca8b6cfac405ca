import CounterService
import CounterServiceLive
import CounterStore
import Foundation

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(stateFolder: URL) async throws {
  // snippet: readme
  // CounterStore.live(directory:) is in CounterStoreLive; any CounterStore does.
  let counter = CounterService.live(store: .inMemory())
  let count = try await counter.increment()
  // end
  _ = count  // the example ends with the value it shows
}
