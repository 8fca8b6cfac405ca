import Synchronization

/// A continuation that is resumed exactly once, by whichever comes first: the end of the work
/// or a stop, even a stop that comes before the continuation is set.
final class OnceContinuation<Value: Sendable>: Sendable {
  private let state = Mutex<(continuation: CheckedContinuation<Value, any Error>?, done: Bool)>(
    (nil, false))

  /// Whether it has been resumed, or ended before it was set.
  var isDone: Bool { state.withLock { $0.done } }

  /// Sets the continuation to resume. Returns false, after resuming it with
  /// `CancellationError`, when it had already ended.
  func set(_ continuation: CheckedContinuation<Value, any Error>) -> Bool {
    let endedEarly = state.withLock { state in
      state.continuation = continuation
      return state.done
    }
    if endedEarly { continuation.resume(throwing: CancellationError()) }
    return !endedEarly
  }

  /// Resumes with `result` the first time; later calls do nothing.
  func resume(with result: Result<Value, any Error>) {
    let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>? in
      guard !state.done else { return nil }
      state.done = true
      defer { state.continuation = nil }
      return state.continuation
    }
    continuation?.resume(with: result)
  }
}
