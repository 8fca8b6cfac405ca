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

  /// A download's own rate within the shared one: the slower of the two holds, each counting
  /// every byte.
  @Test func aLimitWithinASharedOneKeepsBoth() {
    let shared = RateLimit(bytesPerSecond: 100_000)
    let own = RateLimit(bytesPerSecond: 50_000, within: shared)
    let other = RateLimit(bytesPerSecond: nil, within: shared)
    #expect(own.lowestRate == 50_000)
    #expect(other.lowestRate == 100_000)
    #expect(own.wait(after: 50_000, at: start) == .seconds(1))
    // The shared budget counted the first reader's bytes too.
    #expect(other.wait(after: 50_000, at: start) == .seconds(1))
  }

  /// A new rate holds for the next piece, in both directions, and none is none.
  @Test func aChangedRateHoldsAtOnce() {
    let limit = RateLimit(bytesPerSecond: nil, within: nil)
    #expect(limit.wait(after: 1_000_000, at: start) == .zero)
    limit.change(to: 1000)
    #expect(limit.rate == 1000)
    #expect(limit.wait(after: 1000, at: start) == .seconds(1))
    limit.change(to: 10_000)
    #expect(limit.wait(after: 1000, at: start) == .milliseconds(100))
    limit.change(to: nil)
    #expect(limit.wait(after: 1_000_000, at: start) == .zero)
  }
}
