import StyleGuide
import Testing

@Suite struct PrintableTests {
  @Test func plainTextIsLeftAsItIs() {
    #expect("/plain/päge \\ ok".printable == "/plain/päge \\ ok")
  }

  @Test(arguments: [
    ("/\u{1B}]0;owned\u{07}x", #"/\x1B]0;owned\x07x"#),
    ("/\u{1B}[2J\u{7F}\u{9B}", #"/\x1B[2J\x7F\x9B"#),
    ("a\rb\nc\td", #"a\x0Db\x0Ac\x09d"#),
    ("next\u{85}line", #"next\x85line"#),
    ("\u{1B}]52;c;aGVsbG8=\u{07}", #"\x1B]52;c;aGVsbG8=\x07"#),
    ("/a\u{202E}b\u{2066}", #"/a\u{202E}b\u{2066}"#),
  ])
  func controlCharactersAreShownEscaped(text: String, shown: String) {
    #expect(text.printable == shown)
  }
}
