import DownloadClient
import Foundation
import HTTPClient
import Reachability
import Synchronization
import TestClocks
import Testing

@testable import DownloadClientLive

/// A server of one file that answers `Range: bytes=A-B` with 206 (unless `takesRanges` is
/// false), recording the ranges asked for.
private final class RangeServer: Sendable {
  let body: Data
  let takesRanges: Bool
  let ranges = Mutex<[String]>([])
  let rates = Mutex<[Int64?]>([])

  init(_ body: Data, takesRanges: Bool = true) {
    self.body = body
    self.takesRanges = takesRanges
  }

  var client: HTTPClient {
    HTTPClient { request, receiver in
      let range = request.header("Range")
      self.ranges.withLock { $0.append(range ?? "none") }
      self.rates.withLock { $0.append(request.maxBytesPerSecond) }
      var headers: HTTPHeaders = ["ETag": "\"v1\""]
      var status = 200
      var slice = self.body[...]
      if self.takesRanges, let range, range.hasPrefix("bytes=") {
        let bounds = range.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        let start = Int(bounds[0])!
        let end = bounds[1].isEmpty ? self.body.count - 1 : Int(bounds[1])!
        slice = self.body[start...end]
        status = 206
        headers["Content-Range"] = "bytes \(start)-\(end)/\(self.body.count)"
      }
      headers["Content-Length"] = "\(slice.count)"
      let head = HTTPResponseHead(status: status, headers: headers, url: request.url)
      guard await receiver.head(head) else { return }
      var offset = slice.startIndex
      while offset < slice.endIndex {
        let piece = slice[offset..<min(offset + 100_000, slice.endIndex)]
        guard receiver.body(Data(piece)) else { return }
        offset = piece.endIndex
      }
    }
  }
}

@Suite struct SegmentedTests {
  private func client(
    _ server: RangeServer, folder: TemporaryFolder, segments: Int, rate: Int64? = nil
  ) -> DownloadClient {
    var configuration = DownloadConfiguration(outputDirectory: folder.url)
    configuration.segments = segments
    configuration.maxBytesPerSecond = rate
    return DownloadClient.live(
      configuration: configuration, store: .inMemory(), http: server.client,
      clock: ImmediateClock(), reachability: .reachable)
  }

  private func download(_ client: DownloadClient) async throws -> DownloadEvent {
    let events = client.events()
    let download = try await client.start(
      DownloadRequest(url: URL(string: "http://server.test/file.bin")!))
    for await event in events where event.downloadID == download.id {
      if case .finished = event { return event }
      if case .failed = event { return event }
    }
    throw CancellationError()
  }

  @Test func aFileIsFetchedInSegmentsAndWrittenWhole() async throws {
    let folder = try TemporaryFolder()
    let body = content(4 << 20 + 123)
    let server = RangeServer(body)
    let event = try await download(client(server, folder: folder, segments: 4))
    #expect(event == .finished(event.downloadID, file: folder.file("file.bin")))
    #expect(try Data(contentsOf: folder.file("file.bin")) == body)
    let ranges = server.ranges.withLock { $0 }
    #expect(ranges.first == "bytes=0-0")
    #expect(
      Set(ranges.dropFirst()) == [
        "bytes=0-1048605", "bytes=1048606-2097211", "bytes=2097212-3145817",
        "bytes=3145818-4194426",
      ])
  }

  @Test func aServerWithoutRangesGetsOneConnection() async throws {
    let folder = try TemporaryFolder()
    let body = content(3 << 20)
    let server = RangeServer(body, takesRanges: false)
    let event = try await download(client(server, folder: folder, segments: 4))
    #expect(event == .finished(event.downloadID, file: folder.file("file.bin")))
    #expect(try Data(contentsOf: folder.file("file.bin")) == body)
    #expect(server.ranges.withLock { $0 } == ["bytes=0-0", "none"])
  }

  @Test func aRateLimitIsSharedByTheSegments() async throws {
    let folder = try TemporaryFolder()
    let server = RangeServer(content(2 << 20))
    _ = try await download(client(server, folder: folder, segments: 2, rate: 4000))
    #expect(server.rates.withLock { $0 } == [4000, 2000, 2000])
  }
}
