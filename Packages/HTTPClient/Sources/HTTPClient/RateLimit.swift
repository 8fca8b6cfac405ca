import Synchronization

/// A rate that one or many transfers keep together (curl's `--limit-rate`; aria2c's
/// `--max-overall-download-limit` when shared): after each piece a transfer reads, how long it
/// waits so that the bytes read by all of them have not come faster than the rate. At most a
/// second of bytes is saved up while nothing is read, so an idle start is no licence to burst.
public final class RateLimit: Sendable, Equatable {
  public let bytesPerSecond: Int64
  /// When the bytes counted so far are due at the rate.
  private let due = Mutex<ContinuousClock.Instant?>(nil)

  public init(bytesPerSecond: Int64) {
    self.bytesPerSecond = max(1, bytesPerSecond)
  }

  /// Counts `bytes` read at `now`; the wait before the reader goes on.
  public func wait(after bytes: Int, at now: ContinuousClock.Instant = .now) -> Duration {
    let (seconds, rest) = Int64(bytes).quotientAndRemainder(dividingBy: bytesPerSecond)
    let nanoseconds = Int64(Int128(rest) * 1_000_000_000 / Int128(bytesPerSecond))
    let span = Duration.seconds(seconds) + .nanoseconds(nanoseconds)
    return due.withLock { due in
      let start = max(due ?? now, now - .seconds(1))
      due = start + span
      return max(.zero, now.duration(to: start + span))
    }
  }

  /// One limit is equal only to itself: two limits of the same rate are two budgets.
  public static func == (left: RateLimit, right: RateLimit) -> Bool { left === right }
}
