import Foundation
import Testing

@testable import DownloadClientLive

@Suite struct RateMeterTests {
  @Test func smoothsTheRateAndEstimatesTheTimeLeft() {
    var meter = RateMeter()
    var sampled = meter.record(bytes: 0, at: .zero)
    #expect(!sampled)
    sampled = meter.record(bytes: 1000, at: .seconds(1))
    #expect(sampled)
    #expect(meter.bytesPerSecond == 1000)
    sampled = meter.record(bytes: 1100, at: .milliseconds(1100))
    #expect(!sampled)
    sampled = meter.record(bytes: 3000, at: .seconds(2))
    #expect(sampled)
    #expect(meter.bytesPerSecond == 0.3 * 2000 + 0.7 * 1000)
    #expect(meter.timeRemaining(for: 2600) == .seconds(2))
    #expect(meter.timeRemaining(for: nil) == nil)
  }
}
