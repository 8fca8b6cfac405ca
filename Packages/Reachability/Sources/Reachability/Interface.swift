import Foundation

/// Whether hosts can be reached: the equivalent of `NWPathMonitor` for one host and port.
public struct Reachability: Sendable {
  /// The host's status now.
  public var status: @Sendable (ReachabilityHost) async -> ReachabilityStatus
  /// The host's status, first as it is now and then at each change, until the consumer
  /// stops iterating. Nothing is watched while no one iterates.
  public var changes: @Sendable (ReachabilityHost) -> AsyncStream<ReachabilityStatus>

  public init(
    status: @escaping @Sendable (ReachabilityHost) async -> ReachabilityStatus,
    changes: @escaping @Sendable (ReachabilityHost) -> AsyncStream<ReachabilityStatus>
  ) {
    self.status = status
    self.changes = changes
  }

  /// Returns once `host` is reachable: at once if it is now. Throws `CancellationError` when
  /// the task is cancelled first.
  public func waitUntilReachable(_ host: ReachabilityHost) async throws {
    for await status in changes(host) where status == .reachable { return }
    throw CancellationError()
  }

  /// Waits until `host` is reachable, but not past `deadline` on `clock`. Returns whether it
  /// became reachable (false on the deadline or a cancellation).
  public func waitUntilReachable<C: Clock<Duration>>(
    _ host: ReachabilityHost, until deadline: C.Instant, clock: C
  ) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
      group.addTask { (try? await waitUntilReachable(host)) != nil }
      group.addTask {
        try? await clock.sleep(until: deadline, tolerance: nil)
        return false
      }
      let reachable = await group.next() ?? false
      group.cancelAll()
      return reachable && !Task.isCancelled
    }
  }
}

/// A host and the TCP port that must accept connections.
public struct ReachabilityHost: Hashable, Sendable, CustomStringConvertible {
  public var name: String
  public var port: Int

  public init(name: String, port: Int) {
    self.name = name
    self.port = port
  }

  /// The host of an http or https URL, on its port or the scheme's.
  public init?(url: URL) {
    guard let name = url.host, !name.isEmpty else { return nil }
    switch url.scheme?.lowercased() {
    case "http": self.init(name: name, port: url.port ?? 80)
    case "https": self.init(name: name, port: url.port ?? 443)
    default: return nil
    }
  }

  public var description: String { "\(name):\(port)" }
}

public enum ReachabilityStatus: String, Sendable, Equatable {
  case reachable
  case unreachable
  /// Not known yet.
  case unknown
}
