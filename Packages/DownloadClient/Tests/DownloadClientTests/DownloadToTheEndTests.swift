import DownloadClient
import Foundation
import Testing

/// `DownloadClient.download(_:)`: a start, then the download's own end.
@Suite struct DownloadToTheEndTests {
  private let request = DownloadRequest(url: URL(string: "http://h/a.iso")!)
  private let id = DownloadID("0000000a")

  /// A client whose `start` gives the download with `status` and then sends `events` (with an
  /// event of another download before each), and whose events then end.
  private func client(_ status: DownloadStatus, then events: [DownloadEvent]) -> DownloadClient {
    let (stream, continuation) = AsyncStream<DownloadEvent>.makeStream()
    let download = Download(
      id: id, request: request, status: status,
      destination: URL(fileURLWithPath: "/data/a.iso"))
    return DownloadClient(
      start: { _ in
        for event in events {
          continuation.yield(.statusChanged(DownloadID("ffffffff"), .running))
          continuation.yield(event)
        }
        continuation.finish()
        return download
      },
      pause: { _ in }, resume: { _ in }, cancel: { _ in }, cancelAll: {}, list: { [] },
      events: { stream })
  }

  @Test func aFinishedDownloadIsReturnedWithItsFile() async throws {
    let file = URL(fileURLWithPath: "/data/a (1).iso")
    let done = try await client(
      .queued,
      then: [
        .statusChanged(id, .running),
        .progress(
          id,
          DownloadProgress(
            receivedBytes: 5, expectedBytes: 10, bytesPerSecond: 1, estimatedTimeRemaining: nil)),
        .finished(id, file: file, bytes: 10),
      ]
    ).download(request)
    #expect(done.status == .completed)
    #expect(done.destination == file)
    #expect(done.receivedBytes == 10)
    #expect(done.expectedBytes == 10)
  }

  @Test func aFailureIsThrown() async throws {
    await #expect(throws: DownloadError.httpStatus(404)) {
      try await client(.queued, then: [.failed(id, .httpStatus(404))]).download(request)
    }
  }

  @Test func aCancelMeanwhileIsThrown() async throws {
    await #expect(throws: DownloadError.unknownDownload(id)) {
      try await client(.running, then: [.removed(id)]).download(request)
    }
  }

  @Test func aDownloadDoneAlreadyIsReturnedAtOnce() async throws {
    #expect(try await client(.completed, then: []).download(request).status == .completed)
  }

  @Test func eventsThatEndFirstAreAnError() async throws {
    await #expect(throws: DownloadError.self) {
      try await client(.queued, then: [.statusChanged(id, .running)]).download(request)
    }
  }
}
