import DownloadClient
import DownloadFeature
import Foundation
import Testing

private let id = DownloadID("a1")
private let download = Download(
  id: id, request: DownloadRequest(url: URL(string: "http://h/files/big.iso")!),
  status: .queued, destination: URL(fileURLWithPath: "/tmp/out/big.iso"))

private func progress(_ bytes: Int64) -> DownloadEvent {
  .progress(
    id,
    DownloadProgress(
      receivedBytes: bytes, expectedBytes: 10_000_000, bytesPerSecond: 1_000_000,
      estimatedTimeRemaining: nil))
}

/// The plain lines through a pipe, and the closing summary, at instants a test chooses.
@Suite struct DownloadLinesTests {
  @Test func progressIsSaidAtMostOnceASecondAndStatesAlways() {
    var list = DownloadList([download])
    var lines = DownloadLines<ContinuousClock.Instant>()
    let start = ContinuousClock.now
    var said: [String] = []
    for (event, after) in [
      (DownloadEvent.statusChanged(id, .running), 0), (progress(1_000_000), 100),
      (progress(2_000_000), 900), (progress(3_000_000), 1100), (progress(4_000_000), 2000),
      (.finished(id, file: URL(fileURLWithPath: "/tmp/out/big.iso"), bytes: 10_000_000), 2001),
    ] {
      list.apply(event)
      if let line = lines.line(for: event, in: list, at: start + .milliseconds(after)) {
        said.append(line)
      }
    }
    #expect(
      said == [
        "a1 downloading", "a1 progress 10% 976.6 KiB / 9.5 MiB 976.6 KiB/s",
        "a1 progress 30% 2.9 MiB / 9.5 MiB 976.6 KiB/s", "a1 done /tmp/out/big.iso",
      ])
  }

  @Test func anAddedDownloadIsNoLineAndFailuresAndRemovalsAre() {
    var lines = DownloadLines<ContinuousClock.Instant>()
    let list = DownloadList([download])
    let now = ContinuousClock.now
    #expect(lines.line(for: .added(download), in: list, at: now) == nil)
    #expect(
      lines.line(for: .failed(id, .httpStatus(404)), in: list, at: now)?.hasPrefix("a1 failed: ")
        == true)
    #expect(lines.line(for: .removed(id), in: list, at: now) == "a1 cancelled")
  }

  @Test func theSummarySaysFilesBytesTimeAndRate() {
    var list = DownloadList([download])
    list.apply(.finished(id, file: URL(fileURLWithPath: "/tmp/out/big.iso"), bytes: 10_485_760))
    #expect(list.summary(elapsed: .seconds(4)) == "1 file, 10.0 MiB in 4.0 s (2.5 MiB/s)")
  }

  /// Stopped before any file was done (Ctrl-C), where it said "0 files, 0 B, 73.9 MiB in this
  /// run": what arrived, and the downloads paused.
  @Test func aRunWithNoFileDoneSaysWhatArrived() {
    var list = DownloadList([download])
    list.apply(progress(3_000_000))
    list.apply(.statusChanged(id, .paused))
    #expect(
      list.summary(elapsed: .seconds(3))
        == "no file done, 2.9 MiB received in 3.0 s (976.6 KiB/s), 1 paused")
  }

  @Test func aResumedRunSaysWhatArrivedAndAFailureIsCounted() {
    var resumed = download
    resumed.receivedBytes = 6_291_456
    let other = Download(
      id: DownloadID("b2"), request: DownloadRequest(url: URL(string: "http://h/x")!),
      status: .queued, destination: URL(fileURLWithPath: "/tmp/out/x"))
    var list = DownloadList([resumed, other])
    list.apply(.finished(id, file: URL(fileURLWithPath: "/tmp/out/big.iso"), bytes: 10_485_760))
    list.apply(.failed(DownloadID("b2"), .httpStatus(404)))
    #expect(
      list.summary(elapsed: .seconds(2))
        == "1 file, 10.0 MiB (4.0 MiB received in this run) in 2.0 s (2.0 MiB/s), 1 failed")
  }
}
