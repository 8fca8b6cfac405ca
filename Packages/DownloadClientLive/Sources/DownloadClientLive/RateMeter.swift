import Synchronization

/// A smoothed transfer rate: an exponential moving average of the rate over each interval.
struct RateMeter {
  private var lastTime: Duration?
  private var lastBytes: Int64 = 0
  private(set) var bytesPerSecond: Double = 0
  /// The weight of the newest interval.
  var smoothing = 0.3

  /// Records that `bytes` had been received at `time`, with at least `interval` since the
  /// last sample; returns whether a sample was taken.
  mutating func record(bytes: Int64, at time: Duration, interval: Duration = .milliseconds(200))
    -> Bool
  {
    guard let lastTime else {
      self.lastTime = time
      lastBytes = bytes
      return false
    }
    let elapsed = time - lastTime
    guard elapsed >= interval, elapsed > .zero else { return false }
    let rate = Double(bytes - lastBytes) / elapsed.inSeconds
    bytesPerSecond =
      bytesPerSecond == 0 ? rate : smoothing * rate + (1 - smoothing) * bytesPerSecond
    self.lastTime = time
    lastBytes = bytes
    return true
  }

  /// The time left for `remaining` bytes at the current rate.
  func timeRemaining(for remaining: Int64?) -> Duration? {
    guard let remaining, bytesPerSecond > 0 else { return nil }
    return .milliseconds(Int64(Double(max(0, remaining)) / bytesPerSecond * 1000))
  }
}

/// The rate a download's last progress said, written by its transfer and read by lists.
final class LastRate: Sendable {
  private let rate = Mutex<Double?>(nil)

  var value: Double? { rate.withLock { $0 } }

  func set(_ bytesPerSecond: Double) {
    rate.withLock { $0 = bytesPerSecond }
  }
}
