import Foundation
import Reachability

/// The example of the README, which CI checks is this code (`Scripts/check-readme-snippets.py`);
/// compiled, not run.
private func readmeExample(
  reachability: Reachability, serverURL: URL, fetch: @escaping @Sendable () async -> Void
) async {
  // snippet: readme
  // reachability: Reachability.live() (ReachabilityLive) in an app
  let minder = NetMinder(reachability: reachability, host: ReachabilityHost(url: serverURL)!)
  await minder.whenReachable { await fetch() }
  // end
}
