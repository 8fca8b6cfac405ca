import Testing

@testable import HTTPClientLive

@Suite struct RateLimitTests {
  private let start = ContinuousClock.now

  /// 100 kB at 100 kB/s takes a second, however fast each piece arrives.
  @Test func piecesThatComeTooSoonWaitForTheRate() {
    var limit = RateLimit(bytesPerSecond: 100_000, startingAt: start)
    #expect(limit.wait(after: 50_000, at: start) == .milliseconds(500))
    #expect(limit.wait(after: 50_000, at: start + .milliseconds(500)) == .milliseconds(500))
  }

  @Test func aSlowTransferNeverWaits() {
    var limit = RateLimit(bytesPerSecond: 100_000, startingAt: start)
    #expect(limit.wait(after: 10_000, at: start + .seconds(1)) == .zero)
    #expect(limit.wait(after: 50_000, at: start + .seconds(2)) == .zero)
  }

  /// Five bytes a second: a first read of 1 kB holds the transfer for 204.8 s.
  @Test func aTinyRateHoldsForTheBytesAlreadyRead() {
    var limit = RateLimit(bytesPerSecond: 5, startingAt: start)
    #expect(limit.wait(after: 1024, at: start) == .milliseconds(204_800))
  }
}
