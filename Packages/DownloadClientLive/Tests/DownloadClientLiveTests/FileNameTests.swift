import Foundation
import Testing

@testable import DownloadClientLive

@Suite struct FileNameTests {
  @Test(arguments: [
    ("report.pdf", "report.pdf"),
    ("../../etc/passwd", "passwd"),
    ("/absolute/path/name.txt", "name.txt"),
    ("..\\windows\\evil.exe", "evil.exe"),
    ("...hidden", "hidden"),
    ("bad\u{0}na\u{1B}me\n.txt", "badname.txt"),
  ])
  func sanitises(candidate: String, expected: String) {
    #expect(FileName.sanitised(candidate) == expected)
  }

  @Test(arguments: ["", "..", "/", "../", "\u{7}"])
  func rejectsNamesWithNothingLeft(candidate: String) {
    #expect(FileName.sanitised(candidate) == nil)
  }

  @Test func readsContentDisposition() {
    #expect(FileName.fromContentDisposition(#"attachment; filename="a b.zip""#) == "a b.zip")
    #expect(FileName.fromContentDisposition("attachment; filename=../x.bin") == "x.bin")
    #expect(
      FileName.fromContentDisposition("attachment; filename*=UTF-8''caf%C3%A9.txt") == "café.txt")
    #expect(FileName.fromContentDisposition("inline") == nil)
  }

  @Test func namesFromURLs() {
    #expect(FileName.fromURL(URL(string: "http://h/files/a%20b.bin?size=3")!) == "a b.bin")
    #expect(FileName.fromURL(URL(string: "http://h/")!) == "download")
    #expect(FileName.fromURL(URL(string: "http://h/dir/..")!) == "download")
  }
}

@Suite struct HTTPHeadersTests {
  @Test func parsesContentRange() {
    #expect(
      HTTPHeaders.contentRange("bytes 400-999/1000")
        == HTTPHeaders.ContentRange(start: 400, end: 999, total: 1000))
    #expect(HTTPHeaders.contentRange("bytes 0-9/*")?.total == nil)
    #expect(HTTPHeaders.contentRange("bytes */1000") == nil)
    #expect(HTTPHeaders.contentRange("items 0-9/10") == nil)
    #expect(HTTPHeaders.contentRange("bytes 9-0/10") == nil)
    #expect(HTTPHeaders.contentRange(nil) == nil)
  }

  @Test func parsesRetryAfter() {
    #expect(HTTPHeaders.retryAfter("120") == .seconds(120))
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    #expect(HTTPHeaders.retryAfter("Tue, 14 Nov 2023 22:13:50 GMT", now: now) == .seconds(30))
    #expect(HTTPHeaders.retryAfter("soon") == nil)
    #expect(HTTPHeaders.retryAfter(nil) == nil)
  }
}

@Suite struct RateMeterTests {
  @Test func smoothsTheRateAndEstimatesTheTimeLeft() {
    var meter = RateMeter()
    var sampled = meter.record(bytes: 0, at: .zero)
    #expect(!sampled)
    sampled = meter.record(bytes: 1000, at: .seconds(1))
    #expect(sampled)
    #expect(meter.bytesPerSecond == 1000)
    sampled = meter.record(bytes: 1100, at: .milliseconds(1100))
    #expect(!sampled)
    sampled = meter.record(bytes: 3000, at: .seconds(2))
    #expect(sampled)
    #expect(meter.bytesPerSecond == 0.3 * 2000 + 0.7 * 1000)
    #expect(meter.timeRemaining(for: 2600) == .seconds(2))
    #expect(meter.timeRemaining(for: nil) == nil)
  }
}
