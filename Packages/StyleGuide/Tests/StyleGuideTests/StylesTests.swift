import Testing

@testable import StyleGuide

@Suite struct StylesTests {
  @Test func enabledStylesWrapTextInEscapeCodes() {
    let styles = Styles(isEnabled: true)
    #expect(styles.bold("x") == "\u{1B}[1mx\u{1B}[0m")
    #expect(styles.red("x") == "\u{1B}[31mx\u{1B}[0m")
  }

  @Test func disabledStylesLeaveTextPlain() {
    let styles = Styles(isEnabled: false)
    #expect(styles.bold("x") == "x")
    #expect(styles.dim("x") == "x")
    #expect(styles.inverse("x") == "x")
  }

  @Test func aStreamThatIsNotATerminalGetsNoStyles() throws {
    let pipe = try #require(PipeEnds())
    #expect(!Styles.forStream(pipe.write, environment: [:]).isEnabled)
  }

  @Test func aTerminalGetsStylesUnlessNoColorOrDumb() {
    #expect(Styles.wanted(onTerminal: true, environment: ["TERM": "xterm"]))
    #expect(!Styles.wanted(onTerminal: true, environment: ["NO_COLOR": ""]))
    #expect(!Styles.wanted(onTerminal: true, environment: ["NO_COLOR": "1"]))
    #expect(!Styles.wanted(onTerminal: true, environment: ["TERM": "dumb"]))
  }
}

@Suite struct FrameTests {
  @Test func boxesLinesToTheLongestOne() {
    let box = Frame.box(
      ["Response Code: abc", "Times Fetched: 12345"], styles: Styles(isEnabled: false))
    #expect(
      box == """
        ╭──────────────────────╮
        │ Response Code: abc   │
        │ Times Fetched: 12345 │
        ╰──────────────────────╯
        """)
  }
}
