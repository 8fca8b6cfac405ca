import Reachability
import ReachabilityLive

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample() async throws {
  // snippet: readme
  let reachability = Reachability.live()
  try await reachability.waitUntilReachable(ReachabilityHost(name: "127.0.0.1", port: 8000))
  // end
}
