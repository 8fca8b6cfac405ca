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
