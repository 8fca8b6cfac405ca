import CounterService

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample() async throws {
  // snippet: readme
  let counter = CounterService.inMemory(5)
  let count = try await counter.increment()
  // end
  _ = count  // the example ends with the value it shows
}
