import DownloadClient
import DownloadFeature
import Foundation
import Testing

private let id = DownloadID("a1")
private let download = Download(
  id: id, request: DownloadRequest(url: URL(string: "http://h/files/big.iso")!),
  status: .queued, destination: URL(fileURLWithPath: "/tmp/out/big.iso"))

@Suite struct DownloadListTests {
  @Test func eventsBecomeRows() throws {
    var list = DownloadList()
    list.apply(.added(download))
    #expect(list.rows.map(\.name) == ["big.iso"])
    #expect(list.rows[0].stateText == "queued")

    list.apply(.statusChanged(id, .running))
    list.apply(
      .progress(
        id,
        DownloadProgress(
          receivedBytes: 4_200_000, expectedBytes: 10_000_000, bytesPerSecond: 1_250_000,
          estimatedTimeRemaining: .seconds(65))))
    let row = list.rows[0]
    #expect(row.percentText == "42%")
    #expect(row.bytesText == "4.0 MiB / 9.5 MiB")
    #expect(row.speedText == "1.2 MiB/s")
    #expect(row.etaText == "1:05")
    #expect(row.stateText == "downloading")
    #expect(!list.isSettled)

    list.apply(.finished(id, file: URL(fileURLWithPath: "/tmp/out/big.iso"), bytes: 10_000_000))
    #expect(list.rows[0].percentText == "100%")
    #expect(list.rows[0].stateText == "done")
    #expect(list.rows[0].speedText == "")
    #expect(list.isSettled)
  }

  /// A fast download ends before its first progress event: the end says its size.
  @Test func aDownloadDoneBeforeAnyProgressShowsItsSize() {
    var list = DownloadList([download])
    list.apply(.statusChanged(id, .running))
    list.apply(.finished(id, file: URL(fileURLWithPath: "/tmp/out/big.iso"), bytes: 20_971_520))
    #expect(list.rows[0].bytesText == "20.0 MiB")
    #expect(list.rows[0].percentText == "100%")
  }

  /// A download that resumes from bytes of an earlier run counts only the rest as this run's.
  @Test func bytesThisRunLeaveOutAnEarlierRunsBytes() {
    var resumed = download
    resumed.receivedBytes = 4_000_000
    var list = DownloadList([resumed])
    list.apply(.finished(id, file: URL(fileURLWithPath: "/tmp/out/big.iso"), bytes: 10_000_000))
    #expect(list.rows[0].bytesThisRun == 6_000_000)
  }

  /// A server that ignores the range sends the whole file again: all of it is this run's.
  @Test func aStartOverCountsItsBytesAgain() {
    var resumed = download
    resumed.receivedBytes = 4_000_000
    var list = DownloadList([resumed])
    let progress = { (bytes: Int64) in
      DownloadProgress(
        receivedBytes: bytes, expectedBytes: 10_000_000, bytesPerSecond: 0,
        estimatedTimeRemaining: nil)
    }
    list.apply(.progress(id, progress(5_000_000)))
    list.apply(.progress(id, progress(1_000_000)))
    list.apply(.finished(id, file: URL(fileURLWithPath: "/tmp/out/big.iso"), bytes: 10_000_000))
    #expect(list.rows[0].bytesThisRun == 1_000_000 + 10_000_000)
  }

  @Test func failuresRetriesAndRemovals() {
    var list = DownloadList([download])
    list.apply(.statusChanged(id, .retrying(attempt: 2)))
    #expect(list.rows[0].stateText == "downloading (retry 2)")
    list.apply(.failed(id, .httpStatus(404)))
    #expect(list.rows[0].stateText == "failed: the server answered HTTP 404")
    list.apply(.removed(id))
    #expect(list.rows.isEmpty)
  }

  @Test func anUnknownSizeHasNoPercentage() {
    var list = DownloadList([download])
    list.apply(
      .progress(
        id,
        DownloadProgress(
          receivedBytes: 1500, expectedBytes: nil, bytesPerSecond: 0, estimatedTimeRemaining: nil)))
    #expect(list.rows[0].percentText == "")
    #expect(list.rows[0].fraction == nil)
    #expect(list.rows[0].bytesText == "1.5 KiB")
  }

  @Test func eventsForUnknownDownloadsAreIgnored() {
    var list = DownloadList([download])
    list.apply(.statusChanged(DownloadID("other"), .running))
    #expect(list.rows == DownloadList([download]).rows)
  }
}

@Suite struct UnitsTests {
  @Test func bytes() {
    #expect(Units.bytes(0) == "0 B")
    #expect(Units.bytes(999) == "999 B")
    #expect(Units.bytes(1023) == "1023 B")
    #expect(Units.bytes(1024) == "1.0 KiB")
    // As they go in: --max-size 200M is 209,715,200 bytes.
    #expect(Units.bytes(209_715_200) == "200.0 MiB")
    #expect(Units.bytes(1_048_535) == "1.0 MiB")  // 1023.96 KiB
    #expect(Units.bytes(1_073_741_824) == "1.0 GiB")
  }

  @Test func clock() {
    #expect(Units.clock(.seconds(7)) == "0:07")
    #expect(Units.clock(.seconds(3600 * 2 + 3 * 60 + 4)) == "2:03:04")
  }
}
