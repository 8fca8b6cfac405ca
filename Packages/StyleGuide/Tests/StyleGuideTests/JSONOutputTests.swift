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

  /// A terminal acts on C1 controls as on ESC (U+009B is CSI): every control is escaped, and
  /// the JSON reads back to the same text.
  @Test func everyControlCharacterIsEscaped() throws {
    let text = "a\u{1B}[2J b\u{9B}31m c\u{85}d\u{7F}e é 😀"
    let json = JSONOutput.string(["k": text])
    #expect(json == #"{"k":"a\u001b[2J b\u009b31m c\u0085d\u007fe é 😀"}"#)
    #expect(!json.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    let read = try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
    #expect(read["k"] == text)
  }
}
