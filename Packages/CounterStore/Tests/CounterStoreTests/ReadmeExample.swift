import CounterStore

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(store: CounterStore) async throws {
  // snippet: readme
  let count = try await store.update(CounterStore.timesFetchedKey) { ($0 ?? 0) + 1 }
  // end
  _ = count  // the example ends with the value it shows
}
