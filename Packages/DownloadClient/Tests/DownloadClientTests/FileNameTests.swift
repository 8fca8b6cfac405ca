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
    // Control characters past ASCII (NEL, C1) and format ones (a right-to-left override that
    // shows `exe.txt` as `txt.exe`, zero-width space, byte-order mark, soft hyphen) go too;
    // letters and symbols of any script stay.
    ("a\u{7F}b\u{85}c\u{9B}d.txt", "abcd.txt"),
    ("invoice\u{202E}txt.exe", "invoicetxt.exe"),
    ("\u{FEFF}zero\u{200B}width\u{AD}.txt", "zerowidth.txt"),
    ("café – 東京 ✓.txt", "café – 東京 ✓.txt"),
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

  @Test(arguments: [
    (#"attachment; filename="a;b.txt""#, "a;b.txt"),
    (#"attachment; filename="say \"hi\".txt"; size=3"#, #"say "hi".txt"#),
    (#"attachment; filename="plain.txt"; filename*=UTF-8''%C3%A9t%C3%A9.txt"#, "été.txt"),
    ("attachment;filename=token.bin;creation-date=x", "token.bin"),
  ])
  func readsQuotedAndExtendedNames(header: String, name: String) {
    #expect(FileName.fromContentDisposition(header) == name)
  }

  @Test func longNamesAreCutInBytesBetweenCharactersKeepingTheExtension() throws {
    let name = try #require(FileName.sanitised(String(repeating: "é", count: 200) + ".iso"))
    #expect(name.utf8.count <= FileName.maxBytes)
    #expect(name.hasSuffix("é.iso"))
    #expect(name == String(repeating: "é", count: 98) + ".iso")
    let plain = try #require(FileName.sanitised(String(repeating: "x", count: 300)))
    #expect(plain.utf8.count == FileName.maxBytes)
  }

  @Test func namesFromURLs() {
    #expect(FileName.fromURL(URL(string: "http://h/files/a%20b.bin?size=3")!) == "a b.bin")
    #expect(FileName.fromURL(URL(string: "http://h/")!) == "download")
    #expect(FileName.fromURL(URL(string: "http://h/dir/..")!) == "download")
  }

  @Test(arguments: [
    ("file.txt", 1, "file.1.txt"), ("file.tar.gz", 2, "file.tar.2.gz"), ("README", 3, "README.3"),
    (".profile", 1, ".profile.1"), ("a.", 9999, "a.9999."),
  ])
  func numbersATakenNameAsAria2cDoes(name: String, number: Int, expected: String) {
    #expect(FileName.numbered(name, number) == expected)
  }
}
