import ChecksumTypes
import DownloadClient
import HTTPClient
import Testing
import Unimplemented

@Suite struct BackoffTests {
  private let backoff = Backoff(
    base: .seconds(1), multiplier: 2, maximum: .seconds(30), jitter: 0.2)

  @Test func growsExponentiallyAtTheMiddleOfTheJitterBand() {
    let delays = (1...6).map { backoff.delay(beforeRetry: $0, unit: 0.5) }
    #expect(
      delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(30)])
  }

  @Test func jitterSpreadsTheDelayByTheFraction() {
    #expect(backoff.delay(beforeRetry: 3, unit: 0) == .milliseconds(3200))
    #expect(backoff.delay(beforeRetry: 3, unit: 1) == .milliseconds(4800))
  }

  @Test func retryAfterWinsButIsCapped() {
    #expect(backoff.delay(beforeRetry: 1, retryAfter: .seconds(7), unit: 0) == .seconds(7))
    #expect(backoff.delay(beforeRetry: 1, retryAfter: .seconds(600), unit: 0) == .seconds(30))
  }

  @Test func aCustomBaseAndMultiplier() {
    let fast = Backoff(base: .milliseconds(100), multiplier: 3, jitter: 0)
    #expect(fast.delay(beforeRetry: 3, unit: 0.9) == .milliseconds(900))
  }
}

@Suite struct DownloadModelTests {
  @Test func retryableErrors() {
    #expect(DownloadError.transport("reset").isRetryable)
    #expect(DownloadError.idleTimeout(seconds: 1).isRetryable)
    for status in [408, 429, 500, 503] { #expect(DownloadError.httpStatus(status).isRetryable) }
    for status in [400, 403, 404, 416] { #expect(!DownloadError.httpStatus(status).isRetryable) }
    // HTTPClient's one rule.
    for status in 100..<600 {
      #expect(DownloadError.httpStatus(status).isRetryable == HTTPError.isRetryable(status: status))
    }
    let md5 = FileChecksum(.md5, hex: String(repeating: "a", count: 32))!
    #expect(!DownloadError.checksumMismatch(expected: md5, actual: "b").isRetryable)
    #expect(!DownloadError.resourceTimeout(seconds: 1).isRetryable)
  }

  @Test func progressFraction() {
    let half = DownloadProgress(
      receivedBytes: 50, expectedBytes: 100, bytesPerSecond: 10, estimatedTimeRemaining: nil)
    #expect(half.fraction == 0.5)
    let unknown = DownloadProgress(
      receivedBytes: 50, expectedBytes: nil, bytesPerSecond: 10, estimatedTimeRemaining: nil)
    #expect(unknown.fraction == nil)
  }

  @Test func theLogSinkFiltersByLevel() {
    let lines = LockedLines()
    let sink = LogSink(level: .info) { _, line in lines.append(line) }
    sink(.error, "e")
    sink(.info, "i")
    sink(.debug, "d")
    #expect(lines.all == ["e", "i"])
  }

  @Test func failingThrowsOnEveryEndpoint() async {
    // Each call is an issue of this test (a known one here), besides the error it throws.
    await withKnownIssue {
      await #expect(throws: UnimplementedCall(endpoint: "DownloadClient.list")) {
        try await DownloadClient.failing.list()
      }
    }
  }
}
