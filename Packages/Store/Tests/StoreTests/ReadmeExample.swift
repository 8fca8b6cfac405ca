import Store

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample() async throws {
  // snippet: readme
  let store = Store<String, Int>.inMemory()
  let count = try await store.update("n") { ($0 ?? 0) + 1 }
  // end
  _ = count  // the example ends with the value it shows
}
