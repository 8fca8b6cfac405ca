import Foundation
import HTTPClient
import Testing

@Suite struct TextFastTests {
  /// Strings from pieces chosen to sit at either end: ASCII, spaces and tabs, white space
  /// beyond ASCII (no-break, em and ideographic spaces), letters beyond ASCII, and nothing.
  static let texts: [String] = {
    let pieces = [
      "", "a", "Zz", " ", "\t", "\u{A0}", "\u{2003}", "\u{3000}", "é", "Ä", "ß", "\n", "0 1",
    ]
    return pieces.flatMap { first in
      pieces.flatMap { middle in pieces.map { last in first + middle + last } }
    }
  }()

  @Test func trimmingWhitespaceIsWhatFoundationTrims() {
    for text in Self.texts {
      #expect(
        text.trimmingWhitespace == text.trimmingCharacters(in: .whitespaces),
        "\(text.debugDescription)")
      let slice = text.dropFirst(0)
      #expect(slice.trimmingWhitespace == slice.trimmingCharacters(in: .whitespaces))
    }
  }

  @Test func equalsIgnoringCaseIsWhatLowercasedCompares() {
    let names =
      Self.texts.prefix(400) + [
        "Content-Length", "content-length", "CONTENT-LENGTH", "Content-Lengt", "ÉTAG", "étag", "[",
        "{",
      ]
    for name in names {
      for other in names {
        #expect(name.equalsIgnoringCase(other) == (name.lowercased() == other.lowercased()))
      }
    }
  }
}
