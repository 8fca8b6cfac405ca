import Foundation
import Reachability

extension Reachability {
  /// Reachability from the machine's routes and a short TCP connect to the host's port.
  ///
  /// A host is unreachable when the machine has no route but loopback (for a host that is
  /// not loopback itself), or when a connect to its port fails or takes longer than
  /// `probeTimeout`. `changes` probes only while it is iterated: every `interval` while the
  /// host is reachable, and with backoff from `retryDelay` up to `interval` while it is not.
  public static func live(
    probeTimeout: Duration = .seconds(2),
    interval: Duration = .seconds(5),
    retryDelay: Duration = .milliseconds(100),
    clock: some Clock<Duration> = ContinuousClock()
  ) -> Reachability {
    probing(
      refused: .unreachable, probeTimeout: probeTimeout, interval: interval,
      retryDelay: retryDelay, clock: clock)
  }

  /// Whether the network reaches hosts, whether or not a server listens: as `live`, except
  /// that a host that refuses the connection is reachable, since its machine answered.
  ///
  /// This tells an offline machine (no route, no answer) from a server that is down on a
  /// machine the network reaches: the first is worth waiting for, the second is a failure.
  public static func network(
    probeTimeout: Duration = .seconds(2),
    interval: Duration = .seconds(5),
    retryDelay: Duration = .milliseconds(100),
    clock: some Clock<Duration> = ContinuousClock()
  ) -> Reachability {
    probing(
      refused: .reachable, probeTimeout: probeTimeout, interval: interval,
      retryDelay: retryDelay, clock: clock)
  }

  /// Reachability by the routes and a probe, where a refused connect counts as `refused`.
  private static func probing(
    refused: ReachabilityStatus, probeTimeout: Duration, interval: Duration,
    retryDelay: Duration, clock: some Clock<Duration>
  ) -> Reachability {
    @Sendable func status(_ host: ReachabilityHost) async -> ReachabilityStatus {
      guard Routes.mayReach(host.name) else { return .unreachable }
      switch await Probe.attempt(host, within: probeTimeout) {
      case .connected: return .reachable
      case .refused: return refused
      case .failed: return .unreachable
      }
    }
    return Reachability(
      status: status,
      changes: { host in
        AsyncStream { continuation in
          let watcher = Task {
            var last: ReachabilityStatus?
            var delay = retryDelay
            while !Task.isCancelled {
              let now = await status(host)
              if now != last {
                continuation.yield(now)
                last = now
                delay = retryDelay
              }
              if now == .reachable {
                delay = interval
              }
              do { try await clock.sleep(for: delay) } catch { break }
              delay = min(delay * 2, interval)
            }
            continuation.finish()
          }
          continuation.onTermination = { _ in watcher.cancel() }
        }
      })
  }
}
