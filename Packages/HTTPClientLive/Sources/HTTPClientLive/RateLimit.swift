/// Keeps a transfer at a rate on average (curl's `--limit-rate`): after each piece, how long
/// the transfer waits so that the bytes so far have not come faster than the rate.
///
/// libcurl's own limit (`CURLOPT_MAX_RECV_SPEED_LARGE`, 7.88) is checked only between its
/// read loops, each up to a hundred reads: a file that arrives at once from a near server came
/// at full speed whatever the limit.
struct RateLimit<Instant: InstantProtocol<Duration>> {
  let bytesPerSecond: Int64
  private let started: Instant
  private var received: Int64 = 0

  init(bytesPerSecond: Int64, startingAt started: Instant) {
    self.bytesPerSecond = max(1, bytesPerSecond)
    self.started = started
  }

  /// Counts `bytes` arrived at `now`; the wait before the transfer goes on.
  mutating func wait(after bytes: Int, at now: Instant) -> Duration {
    received += Int64(bytes)
    let (seconds, rest) = received.quotientAndRemainder(dividingBy: bytesPerSecond)
    let nanoseconds = Int64(Int128(rest) * 1_000_000_000 / Int128(bytesPerSecond))
    let due = started.advanced(by: .seconds(seconds) + .nanoseconds(nanoseconds))
    return max(.zero, now.duration(to: due))
  }
}
