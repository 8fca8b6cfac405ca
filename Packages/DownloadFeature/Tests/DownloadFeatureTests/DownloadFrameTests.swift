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
    #expect(line.contains("1.2 MiB/s"))
    #expect(line.contains("1:05"))
    #expect(line.hasSuffix("downloading"))
  }

  /// Found in an 80-column tmux beside aria2c: `1004.1 KiB/s` (a unit's 1000 to 1023.9)
  /// pushed the state out of the line.
  @Test func theWidestNumbersKeepTheStateWhole() {
    var list = DownloadList([download(1, .running, name: "b2.bin")])
    list.apply(
      .progress(
        DownloadID("id1"),
        DownloadProgress(
          receivedBytes: 1_073_636_966, expectedBytes: 1_073_636_966 + 1000,
          bytesPerSecond: 1_028_198, estimatedTimeRemaining: .seconds(3))))
    let line = list.frame(width: 80, height: 24)[0].text
    #expect(line.contains("1023.9 MiB / 1023.9 MiB") && line.contains("1004.1 KiB/s"), "\(line)")
    #expect(line.hasSuffix("downloading") && line.count <= 80, "\(line)")
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
  }

  /// 120 columns show everything; as the terminal narrows the bar narrows and goes first
  /// (wget and aria2c keep their speed and time left at 80), then the time left, then the
  /// speed. The name always keeps 16 columns.
  @Test func columnsGoInOrderAsTheTerminalNarrows() {
    var list = DownloadList([
      download(1, .running, name: String(repeating: "long-name-", count: 8) + ".iso")
    ])
    running(&list, 1)
    let at120 = list.frame(width: 120, height: 24)[0].text
    #expect(at120.contains("█") && at120.contains("1.2 MiB/s") && at120.contains("1:05"))
    let at90 = list.frame(width: 90, height: 24)[0].text
    #expect(at90.contains("█") && at90.contains("1.2 MiB/s") && at90.contains("1:05"))
    #expect(at90.count < at120.count)
    let at80 = list.frame(width: 80, height: 24)[0].text
    #expect(!at80.contains("█") && !at80.contains("░"))
    #expect(at80.contains("1.2 MiB/s") && at80.contains("1:05"))
    #expect(at80.contains("42%") && at80.contains("4.0 MiB / 9.5 MiB"))
    #expect(at80.hasSuffix("downloading"))
    let at70 = list.frame(width: 70, height: 24)[0].text
    #expect(at70.contains("1.2 MiB/s") && !at70.contains("1:05"))
    let at60 = list.frame(width: 60, height: 24)[0].text
    #expect(!at60.contains("█") && !at60.contains("MiB/s") && !at60.contains("1:05"))
    #expect(at60.contains("42%") && at60.hasSuffix("downloading"))
    for line in [at120, at90, at80, at70, at60] {
      #expect(line.prefix(while: { $0 != " " }).count >= 16)
      #expect(line.count <= 120)
    }
  }

  /// A failure's long reason is cut at the line's end; the columns before it stay in place.
  @Test func rowsLineUpWhateverTheirState() {
    var list = DownloadList([
      download(1, .running, name: "x.bin"),
      download(2, .failed(reason: "Failed to connect to 127.0.0.1 port 9 after 0 ms")),
      download(3, .queued, name: "nope.bin"),
    ])
    running(&list, 1)
    for width in [60, 80, 120] {
      let lines = list.frame(width: width, height: 24).map(\.text)
      let percentColumns = Set(lines.map { $0.firstRange(of: "%")?.lowerBound.utf16Offset(in: $0) })
      #expect(percentColumns.count == 1, "\(width): \(lines)")
      #expect(lines.allSatisfy { $0.count <= width })
    }
  }

  /// Found in an 80-column tmux with nginx stopped mid-transfer: the row read
  /// `waiting for netwo…`. A state's word is never cut; the bar gives way first.
  @Test func aStateWordIsNeverCut() {
    var list = DownloadList([download(1, .waitingForNetwork, name: "big.bin")])
    running(&list, 1)
    list.apply(.statusChanged(DownloadID("id1"), .waitingForNetwork))
    let line = list.frame(width: 80, height: 24)[0].text
    #expect(line.hasSuffix("waiting for network") && line.count <= 80, "\(line)")
    #expect(line.contains("42%") && line.contains("4.0 MiB / 9.5 MiB"))
  }

  /// Names alike at their start stay apart: they are cut in the middle.
  @Test func longNamesAreCutInTheMiddle() {
    let prefix = "copy-with-a-rather-long-name-"
    let list = DownloadList([
      download(1, .queued, name: prefix + "01.bin"), download(2, .queued, name: prefix + "02.bin"),
    ])
    let names = list.frame(width: 80, height: 24).map { $0.text.prefix(while: { $0 != " " }) }
    #expect(names.allSatisfy { $0.contains("…") })
    #expect(names[0].hasSuffix("01.bin") && names[1].hasSuffix("02.bin"))
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
