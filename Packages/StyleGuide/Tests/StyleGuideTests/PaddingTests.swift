import StyleGuide
import Testing

@Suite struct PaddingTests {
  @Test func padsToAWidthAndLeavesLongerTextAlone() {
    #expect("42%".leftPadded(5) == "  42%")
    #expect("name".rightPadded(6) == "name  ")
    #expect("too long".leftPadded(3) == "too long")
    #expect("too long".rightPadded(3) == "too long")
  }

  @Test func cutTextEndsWithAnEllipsis() {
    #expect("short".cut(to: 10) == "short")
    #expect("a longer text".cut(to: 6) == "a lon…")
    #expect("text".cut(to: 0) == "")
  }

  @Test func cutInTheMiddleKeepsBothEnds() {
    #expect("report-2024-01.csv".cutInMiddle(to: 11) == "repor…1.csv")
    #expect("report-2024-01.csv".cutInMiddle(to: 11).count == 11)
    #expect("short.txt".cutInMiddle(to: 20) == "short.txt")
    #expect("abcdef".cutInMiddle(to: 2) == "a…")
  }
}
