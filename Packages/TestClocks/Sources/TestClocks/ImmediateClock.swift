import Synchronization

/// A clock whose sleeps return at once, moving its time forward by the duration slept.
///
/// Use it where a test does not care about delays but wants the code under test to run as if
/// they had passed. `now` tells how much time the code slept in total.
public final class ImmediateClock: Clock, Sendable {
  private let current = Mutex(TestInstant(offset: .zero))

  public init() {}

  public var now: TestInstant { current.withLock { $0 } }

  public var minimumResolution: Duration { .zero }

  public func sleep(until deadline: TestInstant, tolerance: Duration?) async throws {
    try Task.checkCancellation()
    current.withLock { now in now = max(now, deadline) }
  }
}
