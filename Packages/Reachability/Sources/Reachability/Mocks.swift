import Synchronization
import Unimplemented

extension Reachability {
  /// Every host is reachable, and stays so.
  public static let reachable = constant(.reachable)

  /// No host is reachable, ever.
  public static let unreachable = constant(.unreachable)

  /// A reachability that a test did not expect to be asked: every call is reported (see
  /// `Unimplemented`) and answers `.unknown`, as these endpoints cannot throw.
  public static let failing = Reachability(
    status: { _ in
      _ = unimplemented("Reachability.status")
      return .unknown
    },
    changes: { _ in
      _ = unimplemented("Reachability.changes")
      return AsyncStream { $0.finish() }
    })

  private static func constant(_ status: ReachabilityStatus) -> Reachability {
    Reachability(
      status: { _ in status },
      changes: { _ in
        AsyncStream { continuation in continuation.yield(status) }
      })
  }

  /// A reachability whose status a test sets, for every host at once.
  public static func controlled(_ initial: ReachabilityStatus = .unknown)
    -> (Reachability, ReachabilityControl)
  {
    let control = ReachabilityControl(initial)
    let reachability = Reachability(
      status: { _ in control.status },
      changes: { _ in control.subscribe() })
    return (reachability, control)
  }
}

/// Sets the status of a `Reachability.controlled()`.
public final class ReachabilityControl: Sendable {
  private struct State {
    var status: ReachabilityStatus
    var next = 0
    var listeners: [Int: AsyncStream<ReachabilityStatus>.Continuation] = [:]
  }

  private let state: Mutex<State>

  init(_ initial: ReachabilityStatus) {
    state = Mutex(State(status: initial))
  }

  public var status: ReachabilityStatus { state.withLock { $0.status } }

  /// How many streams are being iterated.
  public var listenerCount: Int { state.withLock { $0.listeners.count } }

  /// How many streams were made, ended ones too.
  public var subscriptionCount: Int { state.withLock { $0.next } }

  /// Sets the status, and tells every stream when it changes.
  public func set(_ status: ReachabilityStatus) {
    let listeners = state.withLock { state -> [AsyncStream<ReachabilityStatus>.Continuation] in
      guard state.status != status else { return [] }
      state.status = status
      return Array(state.listeners.values)
    }
    for listener in listeners { listener.yield(status) }
  }

  func subscribe() -> AsyncStream<ReachabilityStatus> {
    let (stream, continuation) = AsyncStream<ReachabilityStatus>.makeStream()
    let key = state.withLock { state in
      state.next += 1
      state.listeners[state.next] = continuation
      continuation.yield(state.status)
      return state.next
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.state.withLock { $0.listeners.removeValue(forKey: key) }
    }
    return stream
  }
}
