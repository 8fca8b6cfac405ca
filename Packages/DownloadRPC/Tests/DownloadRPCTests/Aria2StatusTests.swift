import ChecksumTypes
import DownloadClient
import DownloadRPC
import Foundation
import Testing

/// A download in aria2's words: states, lengths as strings, the file and its URIs, keys.
@Suite struct Aria2StatusTests {
  private let url = URL(string: "http://example.com/a.bin")!
  private let folder = URL(fileURLWithPath: "/data")

  private func download(_ status: DownloadStatus) -> Download {
    Download(
      id: DownloadID("0123abcd"),
      request: DownloadRequest(url: url, mirrors: [URL(string: "http://mirror.example/a.bin")!]),
      status: status, destination: folder.appendingPathComponent("a.bin"), receivedBytes: 10,
      expectedBytes: 40)
  }

  @Test(arguments: [
    (DownloadStatus.queued, "waiting"), (.running, "active"), (.retrying(attempt: 2), "active"),
    (.waitingForNetwork, "active"), (.paused, "paused"), (.completed, "complete"),
    (.failed(reason: "gone"), "error"),
  ])
  func everyStateHasAria2sName(status: DownloadStatus, name: String) {
    let value = Aria2Status(download(status), bytesPerSecond: 5, folder: folder).value()
    #expect(value["status"] == .string(name))
    #expect(value["downloadSpeed"] == (name == "active" ? "5" : "0"))
  }

  @Test func lengthsAreStringsAndTheFileHasItsURIs() {
    let value = Aria2Status(download(.running), bytesPerSecond: 1.6, folder: folder).value()
    #expect(value["gid"] == "000000000123abcd")
    #expect(value["totalLength"] == "40")
    #expect(value["completedLength"] == "10")
    #expect(value["downloadSpeed"] == "2")
    #expect(value["dir"] == "/data")
    let file = value["files"]?.array?.first
    #expect(file?["path"] == "/data/a.bin")
    #expect(
      file?["uris"]?.array?.compactMap { $0["uri"] } == [
        "http://example.com/a.bin", "http://mirror.example/a.bin",
      ])
    #expect(value["errorCode"] == nil)
  }

  @Test func aFailureHasItsAria2Number() {
    let status = Aria2Status(
      download(.failed(reason: "the server answered HTTP 404")), folder: folder,
      error: .httpStatus(404))
    #expect(status.value()["errorCode"] == "3")
    #expect(status.value()["errorMessage"] == "the server answered HTTP 404")
    let unknown = Aria2Status(download(.failed(reason: "?")), folder: folder)
    #expect(unknown.value()["errorCode"] == "1")
  }

  @Test func keysSelectTheFields() {
    let value = Aria2Status(download(.paused), folder: folder).value(keys: ["gid", "status"])
    #expect(value == .object(["gid": "000000000123abcd", "status": "paused"]))
  }

  @Test func aStatusReadsBackFromItsJSON() throws {
    let status = Aria2Status(download(.running), bytesPerSecond: 3, folder: folder)
    let read = try #require(Aria2Status(JSONValue(json: status.value().json)))
    #expect(read == status)
  }

  @Test func gidsAreSixteenDigitsAndReadBack() {
    #expect(GID.of(DownloadID("0123abcd")) == "000000000123abcd")
    #expect(GID.id("000000000123abcd") == DownloadID("0123abcd"))
    #expect(GID.of(DownloadID("custom")) == "custom")
    #expect(GID.id("2089b05ecca3d829") == DownloadID("2089b05ecca3d829"))
  }

  @Test(arguments: [
    (DownloadError.idleTimeout(seconds: 5), Int32(2)), (.httpStatus(404), 3),
    (.tooSlow(bytesPerSecond: 1, seconds: 2), 5), (.notContinued("x"), 8),
    (.busy(DownloadID("a"), pid: nil), 11), (.destinationExists("/x"), 13), (.file("no"), 17),
    (.transport("cannot find host x"), 19), (.httpStatus(401), 24), (.httpStatus(503), 29),
    (.httpStatus(418), 22), (.transport("reset"), 1),
  ])
  func failuresHaveAria2sNumbers(error: DownloadError, code: Int32) {
    #expect(error.aria2Code == code)
  }

  @Test func aChecksumMismatchIs32() {
    let expected = FileChecksum(.sha256, hex: String(repeating: "a", count: 64))!
    #expect(DownloadError.checksumMismatch(expected: expected, actual: "b").aria2Code == 32)
  }

  @Test func aRemoteDownloadReadsBackWhole() throws {
    let entry = RemoteDownload(
      download: download(.retrying(attempt: 2)), bytesPerSecond: 12.5, error: .httpStatus(503))
    #expect(try RemoteDownload(JSONValue(json: entry.value.json)) == entry)
  }
}
