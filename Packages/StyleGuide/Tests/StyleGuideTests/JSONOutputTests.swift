import Foundation
import StyleGuide
import Testing

@Suite struct JSONOutputTests {
  private struct Sample: Encodable {
    let url = "http://example.test/a"
    let share = Double.nan
    let date = Date(timeIntervalSince1970: 0)
    let b = 1
    let a: String? = nil
  }

  @Test func keysAreSortedSlashesKeptDatesISOAndNaNAString() {
    #expect(
      JSONOutput.string(Sample())
        == #"{"b":1,"date":"1970-01-01T00:00:00Z","share":"nan","url":"http://example.test/a"}"#)
  }

  @Test func prettyIsIndented() {
    #expect(JSONOutput.string(["k": 1], pretty: true) == "{\n  \"k\" : 1\n}")
  }
}
