import StyleGuide
import Testing

@Suite struct ProgressBarTests {
  @Test func fillsInEighths() {
    #expect(ProgressBar.render(0, width: 4) == "░░░░")
    #expect(ProgressBar.render(0.5, width: 4) == "██░░")
    #expect(ProgressBar.render(0.5 + 1 / 32, width: 4) == "██▏░")
    #expect(ProgressBar.render(0.5 + 2 / 32, width: 4) == "██▎░")
    #expect(ProgressBar.render(1, width: 4) == "████")
  }

  @Test func clampsAndHandlesUnknownSizes() {
    #expect(ProgressBar.render(2, width: 3) == "███")
    #expect(ProgressBar.render(-1, width: 3) == "░░░")
    #expect(ProgressBar.render(nil, width: 3) == "░░░")
    #expect(ProgressBar.render(0.5, width: 0) == "")
  }
}

@Suite struct ShareBarTests {
  @Test func barsInEighthsOrInASCII() {
    #expect(ShareBar.render(1, width: 4, ascii: false) == "████")
    #expect(ShareBar.render(0.5, width: 4, ascii: false) == "██  ")
    #expect(ShareBar.render(0.53, width: 4, ascii: false) == "██▏ ")
    #expect(ShareBar.render(0, width: 3, ascii: false) == "   ")
    #expect(ShareBar.render(0.5, width: 4, ascii: true) == "##  ")
    #expect(ShareBar.render(2, width: 2, ascii: true) == "##")
    #expect(ShareBar.render(.nan, width: 2, ascii: true) == "  ")
  }
}
