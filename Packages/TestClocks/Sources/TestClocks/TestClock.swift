import Synchronization

/// A clock that moves only when the test tells it to.
///
/// Code under test sleeps on it as on any clock; the test calls `advance(by:)` to let time
/// pass, and `sleepers(atLeast:)` to wait until the code has reached a sleep. Together they
/// make tests of delays, timeouts and spinners deterministic, with no real waiting.
public final class TestClock: Clock, Sendable {
  private struct Sleeper {
    let id: Int
    let deadline: TestInstant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct Waiter {
    let id: Int
    let count: Int
    let continuation: CheckedContinuation<Void, Never>
  }

  private struct State {
    var now = TestInstant(offset: .zero)
    var nextID = 0
    var sleepers: [Sleeper] = []
    /// Sleepers and waiters cancelled before they began to wait.
    var cancelledEarly: Set<Int> = []
    var waiters: [Waiter] = []

    /// Removes and returns the waiters satisfied by the current number of sleepers.
    mutating func satisfiedWaiters() -> [Waiter] {
      let ready = waiters.filter { $0.count <= sleepers.count }
      waiters.removeAll { $0.count <= sleepers.count }
      return ready
    }
  }

  private let state = Mutex(State())

  public init() {}

  public var now: TestInstant { state.withLock { $0.now } }

  public var minimumResolution: Duration { .zero }

  /// The number of tasks sleeping on this clock right now.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  public func sleep(until deadline: TestInstant, tolerance: Duration?) async throws {
    try Task.checkCancellation()
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let (outcome, waiters) = state.withLock { state -> (Result<Void, any Error>?, [Waiter]) in
          if state.cancelledEarly.remove(id) != nil {
            return (.failure(CancellationError()), [])
          }
          if deadline <= state.now { return (.success(()), []) }
          state.sleepers.append(
            Sleeper(id: id, deadline: deadline, continuation: continuation))
          return (nil, state.satisfiedWaiters())
        }
        if let outcome { continuation.resume(with: outcome) }
        for waiter in waiters { waiter.continuation.resume() }
      }
    } onCancel: {
      let sleeper = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
          state.cancelledEarly.insert(id)
          return nil
        }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward by `duration`, waking every task whose deadline has come, earliest
  /// first.
  public func advance(by duration: Duration) {
    let due = state.withLock { state in
      state.now = state.now.advanced(by: duration)
      let now = state.now
      let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
      state.sleepers.removeAll { $0.deadline <= now }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Returns once at least `count` tasks are sleeping on this clock, or once the task is
  /// cancelled (so that a loop of a test's own that waits for sleepers can be stopped).
  public func sleepers(atLeast count: Int = 1) async {
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let ready = state.withLock { state in
          if state.sleepers.count >= count || state.cancelledEarly.remove(id) != nil {
            return true
          }
          state.waiters.append(Waiter(id: id, count: count, continuation: continuation))
          return false
        }
        if ready { continuation.resume() }
      }
    } onCancel: {
      let waiter = state.withLock { state -> Waiter? in
        guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
          state.cancelledEarly.insert(id)
          return nil
        }
        return state.waiters.remove(at: index)
      }
      waiter?.continuation.resume()
    }
  }
}
