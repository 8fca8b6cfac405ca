import Synchronization

/// A rate that one or many transfers keep together (curl's `--limit-rate`; aria2c's
/// `--max-overall-download-limit` when shared): after each piece a transfer reads, how long it
/// waits so that the bytes read by all of them have not come faster than the rate. At most a
/// second of bytes is saved up while nothing is read, so an idle start is no licence to burst.
///
/// A limit may be `within` another, shared one (a download's own rate within the rate all
/// downloads share): a reader then keeps both. Either rate changes while transfers read
/// (`change(to:)`), for the pieces after.
public final class RateLimit: Sendable, Equatable {
  /// The rate it was made with (`Int64.max` for none); `rate` is the one that holds now.
  public let bytesPerSecond: Int64
  /// The limit this one is within, whose rate its readers keep too.
  public let shared: RateLimit?
  /// The rate that holds, nil for none; and when the bytes counted so far are due at it.
  private let state: Mutex<(rate: Int64?, due: ContinuousClock.Instant?)>

  public init(bytesPerSecond: Int64) {
    self.bytesPerSecond = max(1, bytesPerSecond)
    shared = nil
    state = Mutex((max(1, bytesPerSecond), nil))
  }

  /// A limit of `bytesPerSecond` (nil: none of its own) within `shared`.
  public init(bytesPerSecond: Int64?, within shared: RateLimit?) {
    self.bytesPerSecond = bytesPerSecond.map { max(1, $0) } ?? .max
    self.shared = shared
    state = Mutex((bytesPerSecond.map { max(1, $0) }, nil))
  }

  /// The rate that holds, in bytes a second; nil for none.
  public var rate: Int64? { state.withLock { $0.rate } }

  /// The lowest rate of this limit and those it is within: the most a reader gets.
  public var lowestRate: Int64? {
    [rate, shared?.lowestRate].compactMap { $0 }.min()
  }

  /// Holds `rate` (nil: none) from now on, the bytes counted so far forgotten.
  public func change(to rate: Int64?) {
    state.withLock { $0 = (rate.map { max(1, $0) }, nil) }
  }

  /// Counts `bytes` read at `now`; the wait before the reader goes on, for this rate and the
  /// shared one.
  public func wait(after bytes: Int, at now: ContinuousClock.Instant = .now) -> Duration {
    let own = state.withLock { state -> Duration in
      guard let rate = state.rate else { return .zero }
      let (seconds, rest) = Int64(bytes).quotientAndRemainder(dividingBy: rate)
      let nanoseconds = Int64(Int128(rest) * 1_000_000_000 / Int128(rate))
      let span = Duration.seconds(seconds) + .nanoseconds(nanoseconds)
      let start = max(state.due ?? now, now - .seconds(1))
      state.due = start + span
      return max(.zero, now.duration(to: start + span))
    }
    return max(own, shared?.wait(after: bytes, at: now) ?? .zero)
  }

  /// One limit is equal only to itself: two limits of the same rate are two budgets.
  public static func == (left: RateLimit, right: RateLimit) -> Bool { left === right }
}
