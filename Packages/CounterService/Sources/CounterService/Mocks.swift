import Synchronization

extension CounterService {
  /// A counter kept in memory, starting at `initial` (nil: never counted).
  public static func inMemory(_ initial: Int? = nil) -> CounterService {
    let value = Mutex(initial)
    return CounterService(
      count: { value.withLock { $0 } },
      increment: {
        value.withLock { value in
          value = (value ?? 0) + 1
          return value!
        }
      },
      reset: { value.withLock { $0 = nil } }
    )
  }

  /// A counter that a test did not expect to be used: every endpoint throws.
  public static let failing = CounterService(
    count: { throw UnexpectedCounterCall(endpoint: "count") },
    increment: { throw UnexpectedCounterCall(endpoint: "increment") },
    reset: { throw UnexpectedCounterCall(endpoint: "reset") }
  )
}

/// Thrown by the endpoints of `CounterService.failing`.
public struct UnexpectedCounterCall: Error, Equatable, CustomStringConvertible {
  public let endpoint: String

  public init(endpoint: String) {
    self.endpoint = endpoint
  }

  public var description: String {
    "CounterService.\(endpoint) was called, but no test expected it"
  }
}
