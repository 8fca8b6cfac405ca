/// Runs work that needs a host: at once when the host is reachable, otherwise as soon as it
/// is again. Every piece of pending work is kept, and they run one after another in the
/// order they were handed over.
public actor NetMinder {
  private let reachability: Reachability
  private let host: ReachabilityHost
  private var pending: [@Sendable () async -> Void] = []
  private var draining = false

  public init(reachability: Reachability, host: ReachabilityHost) {
    self.reachability = reachability
    self.host = host
  }

  /// How many pieces of work wait for the host.
  public var pendingCount: Int { pending.count }

  /// Runs `work` when the host is reachable: now, or once it is again.
  public func whenReachable(_ work: @escaping @Sendable () async -> Void) {
    pending.append(work)
    guard !draining else { return }
    draining = true
    Task { await drain() }
  }

  /// Returns when the host is reachable, after the work handed over before.
  public func untilReachable() async {
    await withCheckedContinuation { continuation in
      whenReachable { continuation.resume() }
    }
  }

  /// Runs the pending work in order, including work added meanwhile, each piece once the
  /// host is reachable: work handed over while earlier work ran waits again if the host went
  /// away meanwhile.
  private func drain() async {
    defer { draining = false }
    while !pending.isEmpty {
      guard (try? await reachability.waitUntilReachable(host)) != nil else { return }
      let work = pending.removeFirst()
      await work()
    }
  }
}
