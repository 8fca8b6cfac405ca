import DownloadClient
import DownloadFeature
import Foundation
import Testing

@Suite struct DownloadJSONTests {
  private let id = DownloadID("0000abcd")

  @Test func aFinishedDownloadIsDoneWithItsFile() {
    let record = DownloadJSON(.finished(id, file: URL(fileURLWithPath: "/tmp/a.bin"), bytes: 42))
    var expected = DownloadJSON(event: "state", id: id)
    expected.state = .done
    expected.file = "/tmp/a.bin"
    (expected.receivedBytes, expected.expectedBytes) = (42, 42)
    #expect(record == expected)
  }

  @Test func progressCarriesBytesSpeedAndTimeLeftInWholeSeconds() {
    let record = DownloadJSON(
      .progress(
        id,
        DownloadProgress(
          receivedBytes: 10, expectedBytes: 30, bytesPerSecond: 4.6,
          estimatedTimeRemaining: .milliseconds(4_300))))
    #expect(record.event == "progress")
    #expect(record.receivedBytes == 10 && record.expectedBytes == 30)
    #expect(record.bytesPerSecond == 4)
    #expect(record.secondsRemaining == 4)
  }

  @Test func aListedDownloadSaysItsSpeedWhenItHasOne() {
    var download = Download(
      id: id, request: DownloadRequest(url: URL(string: "http://a/f")!), status: .running,
      destination: nil, receivedBytes: 10)
    #expect(DownloadJSON(event: nil, download: download).bytesPerSecond == nil)
    #expect(DownloadRow(download: download).speedText == "")
    download.bytesPerSecond = 2048.7
    #expect(DownloadJSON(event: nil, download: download).bytesPerSecond == 2048)
    #expect(DownloadRow(download: download).speedText == "2.0 KiB/s")
  }

  @Test func aDownloadItsProcessLeftIsInterruptedNotPaused() {
    var download = Download(
      id: id, request: DownloadRequest(url: URL(string: "http://a/f")!), status: .paused,
      destination: nil)
    #expect(DownloadJSON(event: nil, download: download).interrupted == nil)
    #expect(DownloadTable.lines([download], header: false, width: nil)[0].contains(" paused "))
    download.interrupted = true
    #expect(DownloadJSON(event: nil, download: download).interrupted == true)
    #expect(DownloadTable.lines([download], header: false, width: nil)[0].contains(" interrupted "))
  }

  @Test func aRemovedDownloadIsCancelled() {
    #expect(DownloadJSON(.removed(id)).state == .cancelled)
  }

  @Test func aDownloadWithMirrorsListsThemWithoutPasswords() {
    let request = DownloadRequest(
      url: URL(string: "http://a/f")!, mirrors: [URL(string: "http://u:pw@b/f")!])
    let download = Download(id: id, request: request.redacted, status: .queued, destination: nil)
    #expect(DownloadJSON(event: "added", download: download).mirrors == ["http://u:***@b/f"])
    let single = Download(
      id: id, request: DownloadRequest(url: URL(string: "http://a/f")!), status: .queued,
      destination: nil)
    #expect(DownloadJSON(event: "added", download: single).mirrors == nil)
  }
}
