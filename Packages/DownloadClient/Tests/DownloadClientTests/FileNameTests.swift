import DownloadClient
import Foundation
import Testing

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
