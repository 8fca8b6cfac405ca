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
