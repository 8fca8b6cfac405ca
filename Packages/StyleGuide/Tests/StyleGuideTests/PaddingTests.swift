import StyleGuide
import Testing

@Suite struct PaddingTests {
  @Test func padsToAWidthAndLeavesLongerTextAlone() {
    #expect("42%".leftPadded(5) == "  42%")
    #expect("name".rightPadded(6) == "name  ")
    #expect("too long".leftPadded(3) == "too long")
    #expect("too long".rightPadded(3) == "too long")
  }
}
