import DownloadClient
import DownloadFeature
import Foundation
import Testing

@Suite struct DownloadLogLinesTests {
  @Test func aLinePerEventThatMattersWithTheTimeOfEachEnd() {
    var lines = DownloadLogLines<ContinuousClock.Instant>()
    let a = DownloadID("0000000a")
    let b = DownloadID("0000000b")
    let request = DownloadRequest(url: URL(string: "http://user:pw@h.test/a.bin")!)
    let added = Download(
      id: a, request: request.redacted, status: .queued,
      destination: URL(fileURLWithPath: "/data/a.bin"))
    let start = ContinuousClock.now
    let at = { (seconds: Int) in start.advanced(by: .seconds(seconds)) }
    let progress = DownloadProgress(
      receivedBytes: 1, expectedBytes: 2, bytesPerSecond: 1, estimatedTimeRemaining: nil)
    let said = [
      lines.line(for: .added(added), at: at(0)),
      lines.line(for: .statusChanged(a, .queued), at: at(0)),
      lines.line(for: .statusChanged(a, .running), at: at(1)),
      lines.line(for: .progress(a, progress), at: at(2)),
      lines.line(for: .statusChanged(a, .retrying(attempt: 1)), at: at(3)),
      lines.line(for: .statusChanged(a, .running), at: at(4)),
      lines.line(
        for: .finished(a, file: URL(fileURLWithPath: "/data/a.bin"), bytes: 3 << 20), at: at(6)),
      lines.line(for: .statusChanged(b, .running), at: at(6)),
      lines.line(for: .failed(b, .httpStatus(404)), at: at(8)),
      lines.line(for: .removed(b), at: at(9)),
    ]
    #expect(
      said == [
        "0000000a added http://user:***@h.test/a.bin as /data/a.bin", nil,
        "0000000a downloading", nil, "0000000a downloading (retry 1)", "0000000a downloading",
        "0000000a done /data/a.bin, 3.0 MiB, in 5.0 s", "0000000b downloading",
        "0000000b failed: \(DownloadError.httpStatus(404)), in 2.0 s", "0000000b removed",
      ])
  }
}
