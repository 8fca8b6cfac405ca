import TestClocks

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample() async throws {
  // snippet: readme
  let clock = TestClock()
  let task = Task { try await clock.sleep(for: .seconds(1)) }
  await clock.sleepers(atLeast: 1)
  clock.advance(by: .seconds(1))
  try await task.value
  // end
}
