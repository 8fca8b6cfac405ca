import StyleGuide
import Testing

@Suite struct WrappingTests {
  @Test func piecesGoOnTheNextLineWithTheSeparatorLeftBehind() {
    let lines = ["8297 lines", "8296 visits", "1 malformed", "1360 clients"]
      .wrapped(joinedBy: ", ", width: 30)
    #expect(lines == ["8297 lines, 8296 visits,", "1 malformed, 1360 clients"])
    #expect(lines.allSatisfy { $0.count <= 30 })
  }

  /// A line that another follows keeps room for its mark; the last needs none.
  @Test func theMarkAlwaysFits() {
    let pages = ["/aaaa", "/bbbb", "/cccc"]
    #expect(pages.wrapped(joinedBy: " → ", width: 15) == ["/aaaa → /bbbb →", "/cccc"])
    // "/aaaa → /bbbb" fits 14, but not with the mark it would need.
    #expect(pages.wrapped(joinedBy: " → ", width: 14) == ["/aaaa →", "/bbbb → /cccc"])
    #expect(["/a"].wrapped(joinedBy: " → ", width: 1) == ["/a"])
  }
}
