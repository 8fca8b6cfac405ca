import DownloadClient
import DownloadFeature
import Foundation
import Testing

/// `downloads list`: columns that line up, a failure's reason after them, cut (not wrapped) to
/// a terminal's width.
@Suite struct DownloadTableTests {
  private let downloads = [
    Download(
      id: DownloadID("0a1b2c3d"), request: DownloadRequest(url: URL(string: "http://h/a.iso")!),
      status: .completed, destination: URL(fileURLWithPath: "/tmp/a.iso"),
      receivedBytes: 10_485_760, expectedBytes: 10_485_760),
    Download(
      id: DownloadID("ffee0011"),
      request: DownloadRequest(url: URL(string: "http://alice:pw@h/long-name.bin")!),
      status: .failed(reason: "the server answered HTTP 404\u{1B}[2J"),
      destination: URL(fileURLWithPath: "/tmp/long-name.bin")),
  ]

  @Test func columnsLineUpWithTheReasonAfterThem() {
    let lines = DownloadTable.lines(downloads, header: true, width: nil)
    #expect(
      lines == [
        "ID        STATE       SIZE  NAME           URL",
        "0a1b2c3d  done    10.0 MiB  a.iso          http://h/a.iso",
        "ffee0011  failed       0 B  long-name.bin  http://alice:***@h/long-name.bin  "
          + #"the server answered HTTP 404\x1B[2J"#,
      ])
  }

  /// At 80 columns, what tells the rows apart shows: the host and port of each server (the
  /// file too where there is room), and a failure's reason, where the whole URL once left
  /// `http://127.0.0.1:4300...` on every row.
  @Test func at80ColumnsTheHostAndTheReasonShow() {
    let rows = [
      ("4300", "files/a.iso", DownloadStatus.completed, 10_485_760),
      ("4301", "files/2024/disk-image.iso", .queued, 0),
      ("4300", "files/gone.bin", .failed(reason: "the server answered HTTP 404"), 0),
    ].enumerated().map { index, row in
      Download(
        id: DownloadID("0000000\(index)"),
        request: DownloadRequest(url: URL(string: "http://127.0.0.1:\(row.0)/\(row.1)?size=9")!),
        status: row.2, destination: URL(fileURLWithPath: "/tmp/" + row.1),
        receivedBytes: Int64(row.3), expectedBytes: row.3 == 0 ? nil : Int64(row.3))
    }
    let lines = DownloadTable.lines(rows, header: true, width: 80)
    #expect(lines.allSatisfy { $0.count <= 80 })
    #expect(lines[1].hasSuffix("  127.0.0.1:4300/…/a.iso?…"), "\(lines)")
    #expect(lines[2].hasSuffix("  127.0.0.1:4301/…/disk-image.iso?…"), "\(lines)")
    // Where the host and the reason do not both fit, the reason comes first.
    #expect(lines[3].hasSuffix("  the server answered HTTP 404  127.0…"), "\(lines)")
    let wide = DownloadTable.lines(rows, header: false, width: 120)
    #expect(wide[2].hasSuffix("  127.0.0.1:4300/…/gone.bin?…  the server answered HTTP 404"))
  }

  @Test func aTerminalsWidthCutsEveryLine() {
    let lines = DownloadTable.lines(downloads, header: false, width: 40)
    #expect(lines.count == 2)
    #expect(lines.allSatisfy { $0.count <= 40 })
    #expect(lines[1].hasPrefix("ffee0011  failed"))
  }
}
