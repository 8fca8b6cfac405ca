import Foundation

/// libxml2's errors in words.
enum ParserErrors {
  static func reason(for error: (any Error)?) -> String {
    guard let code = (error as NSError?)?.code else { return "the parser stopped" }
    return reasons[code] ?? "XML parser error \(code)"
  }

  /// What libxml2's error codes (`xmlParserErrors`, the codes of `XMLParser`'s errors) mean.
  /// The names of `XMLParser.ErrorCode` are not used: on Linux its raw values are one off from
  /// the codes.
  private static let reasons: [Int: String] = [
    3: "the document does not start with XML",
    4: "the document holds no element",
    5: "the document ends early, or has content after its root element",
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
    96: "the XML declaration has no version",
  ]
}
