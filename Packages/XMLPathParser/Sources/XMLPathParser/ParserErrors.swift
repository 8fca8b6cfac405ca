import Foundation

/// libxml2's errors in words.
enum ParserErrors {
  /// The reason for libxml2's error `code` (`xmlParserErrors`), with its `message` for the
  /// names it holds; libxml2's own message when no words are known for the code.
  static func reason(code: Int, message: UnsafeMutablePointer<CChar>?) -> String {
    let text = message.map { String(cString: $0) } ?? ""
    let named = quoted(text)
    switch code {
    case 9 where text.contains("UTF-8"): return "a byte that is not UTF-8"
    case 68 where text.contains("EntityRef"): return reasons[22]!
    case 26, 27: return named.map { "the entity `&\($0);` is not declared" } ?? reasons[26]!
    case 89: return named.map { "the entity `&\($0);` refers to itself" } ?? reasons[89]!
    default:
      if let reason = reasons[code] { return reason }
      let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
      return trimmed.isEmpty ? "XML parser error \(code)" : trimmed
    }
  }

  /// libxml2's XML_ERR_DOCUMENT_END: the document ended early, or went on after its root.
  static let documentEnd = "the document ends early, or has content after its root element"

  /// The first name libxml2's message puts in quotes ('name' or "name"), if any.
  private static func quoted(_ message: String) -> String? {
    for mark in ["'", "\""] {
      let parts = message.components(separatedBy: mark)
      if parts.count >= 3, !parts[1].isEmpty { return parts[1] }
    }
    return nil
  }

  /// What libxml2's error codes (`xmlParserErrors`) mean.
  private static let reasons: [Int: String] = [
    3: "the document does not start with XML",
    4: "the document has no root element",
    5: documentEnd,
    6: "a hexadecimal character reference (`&#x…;`) is not valid",
    7: "a decimal character reference (`&#…;`) is not valid",
    8: "a character reference is not valid",
    9: "a character is not allowed in XML",
    14: "the document ends inside a reference",
    15: "a reference before the root element",
    16: "a reference after the root element",
    22: "an `&` that does not start an entity (write `&amp;`)",
    23: "an entity reference has no `;`",
    26: "an entity is not declared",
    32: "the document's encoding is not supported",
    33: "an attribute value does not start with a quote",
    34: "an attribute value is not closed with its quote",
    38: "a `<` in an attribute value (write `&lt;`)",
    39: "an attribute value is not quoted",
    40: "an attribute value is not closed with its quote",
    41: "an attribute has no value",
    42: "an attribute is given twice",
    45: "a comment is not closed with `-->`",
    46: "a processing instruction does not start with a name",
    47: "a processing instruction is not closed with `?>`",
    57: "the XML declaration is not closed with `?>`",
    61: "the DOCTYPE is not closed",
    62: "`]]>` outside a CDATA section",
    63: "a CDATA section is not closed with `]]>`",
    64: "the XML declaration is malformed, or not at the start",
    65: "a space is missing",
    68: "a name is expected (a `<` or `&` that starts nothing?)",
    73: "a tag is not closed with `>`",
    74: "an end tag is not closed (`</name>`)",
    75: "an attribute has no `=`",
    76: "an end tag does not match its start tag",
    77: "the document ends inside a tag",
    80: "a comment holds `--`",
    81: "the document's bytes do not match its encoding",
    85: "the elements are not balanced",
    86: "there is content after the root element",
    89: "an entity refers to itself, or its expansion passes libxml2's limits",
    96: "the XML declaration has no version",
  ]
}
