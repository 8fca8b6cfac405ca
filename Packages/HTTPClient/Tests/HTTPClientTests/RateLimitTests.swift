import HTTPClient
import Testing

@Suite struct RateLimitTests {
  private let start = ContinuousClock.now

  /// 100 kB at 100 kB/s takes a second, however fast each piece arrives.
  @Test func piecesThatComeTooSoonWaitForTheRate() {
    let limit = RateLimit(bytesPerSecond: 100_000)
    #expect(limit.wait(after: 50_000, at: start) == .milliseconds(500))
    #expect(limit.wait(after: 50_000, at: start + .milliseconds(500)) == .milliseconds(500))
  }

  /// A reader slower than the rate waits only for its first piece, which came at once.
  @Test func aSlowReaderNeverWaitsAfterItsFirstPiece() {
    let limit = RateLimit(bytesPerSecond: 100_000)
    #expect(limit.wait(after: 10_000, at: start) == .milliseconds(100))
    #expect(limit.wait(after: 50_000, at: start + .seconds(1)) == .zero)
    #expect(limit.wait(after: 50_000, at: start + .seconds(2)) == .zero)
  }

  /// Transfers that share a limit share its rate: two readers of 100 kB each at 100 kB/s
  /// take two seconds together.
  @Test func transfersSharingALimitShareItsRate() {
    let limit = RateLimit(bytesPerSecond: 100_000)
    #expect(limit.wait(after: 100_000, at: start) == .seconds(1))
    #expect(limit.wait(after: 100_000, at: start) == .seconds(2))
  }

  /// After a long idle time at most a second of bytes passes without waiting.
  @Test func anIdleTimeSavesUpAtMostASecond() {
    let limit = RateLimit(bytesPerSecond: 100_000)
    _ = limit.wait(after: 1, at: start)
    #expect(limit.wait(after: 300_000, at: start + .seconds(60)) == .seconds(2))
  }

  /// Five bytes a second: a first read of 1 kB holds the transfer for 204.8 s.
  @Test func aTinyRateHoldsForTheBytesAlreadyRead() {
    let limit = RateLimit(bytesPerSecond: 5)
    #expect(limit.wait(after: 1024, at: start) == .milliseconds(204_800))
  }
}
