import DownloadClient
import Foundation
import HTTPClient
import TestClocks
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

  @Test func aListSaysHowFastARunningDownloadGoes() async throws {
    let folder = try TemporaryFolder()
    let clock = TestClock()
    let gate = AsyncStream<Void>.makeStream()
    // 1,000 bytes, a second, 1,000 more (1,000 bytes a second), then the rest once let go.
    let http = HTTPClient { request, receiver in
      let head = HTTPResponseHead(
        status: 200, headers: ["Content-Length": "3000"], url: request.url)
      guard await receiver.head(head) else { return }
      _ = receiver.body(Data(count: 1000))
      clock.advance(by: .seconds(1))
      _ = receiver.body(Data(count: 1000))
      for await _ in gate.stream { break }
      _ = receiver.body(Data(count: 1000))
    }
    let client = DownloadClient.live(
      configuration: DownloadConfiguration(outputDirectory: folder.url), store: .inMemory(),
      http: http, clock: clock, reachability: .reachable, random: { 0.5 })
    let events = client.events()
    let download = try await client.start(
      DownloadRequest(url: URL(string: "http://server.test/rate.bin")!))
    for await event in events {
      if case .progress(download.id, let progress) = event {
        #expect(progress.bytesPerSecond == 1000)
        break
      }
    }
    #expect(try await client.list().map(\.bytesPerSecond) == [1000])
    gate.continuation.yield()
    #expect(await end(of: download.id, in: events) != .removed(download.id))
    #expect(try await client.list().map(\.status) == [.completed])
    #expect(try await client.list().map(\.bytesPerSecond) == [nil])
  }
}
