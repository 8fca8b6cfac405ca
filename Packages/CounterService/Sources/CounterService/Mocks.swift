import Synchronization
import Unimplemented

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

  /// A counter that a test did not expect to be used: every endpoint throws and is reported
  /// (see `Unimplemented`).
  public static let failing = CounterService(
    count: { throw unimplemented("CounterService.count") },
    increment: { throw unimplemented("CounterService.increment") },
    reset: { throw unimplemented("CounterService.reset") }
  )
}
