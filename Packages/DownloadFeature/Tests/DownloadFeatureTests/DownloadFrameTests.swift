import DownloadClient
import DownloadFeature
import Foundation
import Testing

@Suite struct DownloadFrameTests {
  private func download(_ index: Int, _ status: DownloadStatus, name: String? = nil)
    -> Download
  {
    Download(
      id: DownloadID("id\(index)"),
      request: DownloadRequest(url: URL(string: "http://h/\(index)")!), status: status,
      destination: URL(fileURLWithPath: "/tmp/\(name ?? "file-\(index).iso")"),
      receivedBytes: 4_200_000, expectedBytes: 10_000_000)
  }

  private func running(_ list: inout DownloadList, _ index: Int) {
    list.apply(
      .progress(
        DownloadID("id\(index)"),
        DownloadProgress(
          receivedBytes: 4_200_000, expectedBytes: 10_000_000, bytesPerSecond: 1_250_000,
          estimatedTimeRemaining: .seconds(65))))
  }

  @Test func aWideTerminalShowsEveryColumn() {
    var list = DownloadList([download(1, .running)])
    running(&list, 1)
    let line = list.frame(width: 120, height: 24)[0].text
    #expect(line.contains("█"))
    #expect(line.contains("1.3 MB/s"))
    #expect(line.contains("1:05"))
    #expect(line.hasSuffix("downloading"))
  }

  @Test func noLineIsWiderThanTheTerminal() {
    var list = DownloadList([
      download(1, .running, name: String(repeating: "long-name-", count: 8) + ".iso"),
      download(2, .failed(reason: String(repeating: "a reason that goes on ", count: 8))),
    ])
    running(&list, 1)
    for width in [20, 40, 60, 80, 100] {
      let lines = list.frame(width: width, height: 24).map(\.text)
      #expect(lines.count == 2)
      #expect(lines.allSatisfy { $0.count <= width }, "\(width): \(lines)")
    }
    // At 80 columns the bar goes first, and the row still says what it is doing.
    let line = list.frame(width: 80, height: 24)[0].text
    #expect(!line.contains("░"))
    #expect(line.hasSuffix("downloading"))
    #expect(line.contains("42%"))
    // The name gives up columns before the speed and the time left do.
    #expect(line.contains("1.3 MB/s"))
    #expect(line.contains("1:05"))
  }

  @Test func moreDownloadsThanLinesShowTheActiveOnesAndATally() {
    var downloads = (1...12).map { download($0, .completed) }
    downloads += (13...20).map { download($0, .queued) }
    downloads[4].status = .running
    downloads[6].status = .retrying(attempt: 1)
    let frame = DownloadList(downloads).frame(width: 80, height: 12)
    let lines = frame.map(\.text)
    #expect(frame.map(\.state) == [.downloading, .downloading, nil])
    #expect(lines.count == 3)
    #expect(lines[0].hasPrefix("file-5.iso"))
    #expect(lines[1].hasPrefix("file-7.iso"))
    #expect(lines[2] == "2 downloading, 10 done, 8 queued")
  }

  @Test func everyStatusHasOneOfTheSevenWords() {
    #expect(
      DownloadState.allCases.map(\.word) == [
        "queued", "downloading", "paused", "waiting for network", "done", "failed", "cancelled",
      ])
    let statuses: [DownloadStatus] = [
      .queued, .running, .retrying(attempt: 3), .waitingForNetwork, .paused, .completed,
      .failed(reason: "x"),
    ]
    #expect(
      statuses.map { DownloadState($0).word } == [
        "queued", "downloading", "downloading", "waiting for network", "paused", "done", "failed",
      ])
  }
}
