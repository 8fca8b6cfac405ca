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

  @Test func aTerminalsWidthCutsEveryLine() {
    let lines = DownloadTable.lines(downloads, header: false, width: 40)
    #expect(lines.count == 2)
    #expect(lines.allSatisfy { $0.count <= 40 })
    #expect(lines[1].hasPrefix("ffee0011  failed"))
  }
}
