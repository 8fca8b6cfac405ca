import ChecksumTypes
import DownloadClient
import DownloadFeature
import Testing

@Suite struct InputFileTests {
  @Test func readsURLsWithTheirOptionLines() throws {
    let text = """
      # nightly
      http://h/a.iso\thttp://mirror/a.iso\t\thttps://m2/a.iso
        dir=/tmp/isos
        out=latest.iso
        checksum=SHA-256=\(String(repeating: "AB", count: 32))

      http://h/b.txt\r
      \tdir=b
      http://h/c.bin
        checksum=sha-1=a9993e364706816aba3e25717850c26c9cd0d89d
      """
    let file = try InputFile(text)
    #expect(
      file.entries == [
        InputFile.Entry(
          url: "http://h/a.iso", mirrors: ["http://mirror/a.iso", "https://m2/a.iso"],
          dir: "/tmp/isos", out: "latest.iso",
          checksum: FileChecksum(.sha256, hex: String(repeating: "ab", count: 32))),
        InputFile.Entry(url: "http://h/b.txt", dir: "b"),
        InputFile.Entry(
          url: "http://h/c.bin",
          checksum: FileChecksum(.sha1, hex: "a9993e364706816aba3e25717850c26c9cd0d89d")),
      ])
  }

  @Test func badLinesAreErrorsWithTheirNumbers() {
    #expect(throws: InputFile.Error(line: 1, reason: "an option line before any URL")) {
      try InputFile("  dir=x\nhttp://h/a")
    }
    #expect(
      throws: InputFile.Error(
        line: 2, reason: "unknown option 'split' (dir, out and checksum are read)")
    ) {
      try InputFile("http://h/a\n  split=4")
    }
    #expect(
      throws: InputFile.Error(
        line: 3,
        reason: "checksum=md5=abc is not TYPE=HEX with a type of md5, sha-1, sha-224, sha-256, "
          + "sha-384, sha-512 and its number of hex digits")
    ) {
      try InputFile("http://h/a\n\n  checksum=md5=abc")
    }
    #expect(throws: InputFile.Error(line: 2, reason: "'out' is not NAME=VALUE")) {
      try InputFile("http://h/a\n  out")
    }
    #expect(throws: InputFile.Error(line: 1, reason: "not a URL: mirror.example")) {
      try InputFile("http://h/a\tmirror.example")
    }
    #expect(throws: InputFile.Error(line: 2, reason: "not a URL: \u{1B}[2Jx")) {
      try InputFile("http://h/a\n\u{1B}[2Jx\n")
    }
    #expect(throws: InputFile.Error(line: 3, reason: "out=../x leaves the download folder")) {
      try InputFile("http://h/a\n  dir=d\n  out=../x")
    }
  }

  @Test func anAbsoluteOutIsInsideTheFolderAsInAria2c() throws {
    let entries = try InputFile("http://h/a\n  out=/etc/cron.d/x").entries
    #expect(entries.first?.out == "etc/cron.d/x")
  }

  @Test func anEmptyListHasNoEntries() throws {
    #expect(try InputFile("\n# nothing\n").entries.isEmpty)
  }
}
