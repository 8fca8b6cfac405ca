import DownloadClient
import DownloadClientLive
import Foundation
import HTTPClient
import Reachability
import TestClocks
import Testing

/// The limits a download was given hold on every run of it, over the configuration of the
/// process that runs it (a `downloads resume` without options).
@Suite(.timeLimit(.minutes(10))) struct LimitsTests {
  private let url = URL(string: "http://server.test/f.bin")!

  private func client(_ script: HTTPScript, folder: TemporaryFolder) -> DownloadClient {
    // The configuration of a process that was given no limits.
    let configuration = DownloadConfiguration(outputDirectory: folder.url, maxRetries: 5)
    return .live(
      configuration: configuration, store: .inMemory(), http: script.client,
      clock: ImmediateClock(), reachability: .reachable, random: { 0.5 })
  }

  private func request(_ limits: DownloadLimits) -> DownloadRequest {
    var request = DownloadRequest(url: url)
    request.limits = limits
    return request
  }

  @Test func theDownloadsOwnMaxSizeHolds() async throws {
    let folder = try TemporaryFolder()
    let script = HTTPScript([.init(body: content(5000))])
    let end = try await download(
      request(DownloadLimits(maxSize: 1000)), with: client(script, folder: folder))
    #expect(end == .failed(end.downloadID, .tooLarge(limit: 1000)))
  }

  @Test func theDownloadsOwnRetriesHold() async throws {
    let folder = try TemporaryFolder()
    let script = HTTPScript(Array(repeating: .init(status: 503, body: Data()), count: 6))
    let end = try await download(
      request(DownloadLimits(maxRetries: 1)), with: client(script, folder: folder))
    guard case .failed = end else {
      Issue.record("\(end)")
      return
    }
    #expect(script.requests.count == 2)
  }

  @Test func theDownloadsOwnRateHolds() async throws {
    let folder = try TemporaryFolder()
    let script = HTTPScript([.init(body: content(100))])
    _ = try await download(
      request(DownloadLimits(bytesPerSecond: 512_000)), with: client(script, folder: folder))
    #expect(script.requests.first?.rateLimit?.rate == 512_000)
  }

  @Test func theDownloadsOwnMaxTimeHolds() async throws {
    let folder = try TemporaryFolder()
    // A retry after 5 s would end past the download's 2 s (the configuration's is 7 days).
    let script = HTTPScript([.init(status: 503, headers: ["Retry-After": "5"], body: Data())])
    let end = try await download(
      request(DownloadLimits(maxSeconds: 2)), with: client(script, folder: folder))
    #expect(end == .failed(end.downloadID, .resourceTimeout(seconds: 2)))
  }
}
