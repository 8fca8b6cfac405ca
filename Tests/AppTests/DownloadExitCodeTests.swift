import ChecksumTypes
import DownloadClient
import Testing

@testable import fetcher

@Suite struct DownloadExitCodeTests {
  /// Every status the mapping gives is in the help's table, and the table lists no other.
  @Test func theTableListsEveryStatusGiven() {
    let errors: [DownloadError] = [
      .unsupportedURL("ftp://x"), .httpStatus(404), .httpStatus(401), .httpStatus(407),
      .httpStatus(500), .httpStatus(502), .httpStatus(503), .httpStatus(504), .httpStatus(418),
      .transport("connection refused"), .transport("cannot find host nowhere.invalid"),
      .idleTimeout(seconds: 5), .tooSlow(bytesPerSecond: 1, seconds: 1),
      .resourceTimeout(seconds: 9), .tooLarge(limit: 1), .lengthMismatch(expected: 2, received: 1),
      .destinationExists("/x"), .file("cannot write /x: No space left on device"),
      .file("cannot write /x: Permission denied"), .unrecoverable("too many redirects"),
      .missingSecrets, .notContinued("200 instead of 206"), .busy(DownloadID("a"), pid: 7),
      .unknownDownload(DownloadID("b")),
      .checksumMismatch(
        expected: FileChecksum(.sha256, hex: String(repeating: "0", count: 64))!, actual: "1"),
    ]
    let given = Set(errors.map(DownloadExitCode.of)).union([0, 130])
    let listed = Set(
      DownloadExitCode.table.split(separator: "\n").dropFirst().compactMap {
        Int32($0.split(separator: " ").first ?? "")
      })
    #expect(given == listed)
  }

  @Test func causesGetAria2csNumbers() {
    #expect(DownloadExitCode.of(.httpStatus(404)) == 3)
    #expect(DownloadExitCode.of(.httpStatus(401)) == 24)
    #expect(DownloadExitCode.of(.httpStatus(503)) == 29)
    #expect(DownloadExitCode.of(.httpStatus(500)) == 22)
    #expect(DownloadExitCode.of(.transport("cannot find host a.invalid")) == 19)
    #expect(DownloadExitCode.of(.transport("Couldn't connect to server")) == 1)
    #expect(DownloadExitCode.of(.file("cannot write /x: No space left on device")) == 9)
    #expect(DownloadExitCode.of(.resourceTimeout(seconds: 9)) == 2)
  }
}
