import Foundation

/// A document turned into UTF-8 before FoundationXML reads it. FoundationXML has libxml2
/// recover from errors, and after a byte that is not valid in the document's encoding
/// libxml2 can hand on a name holding it, on which FoundationXML stops the process (found by
/// Fuzz/XMLPathTarget.swift). Decoding the document here first means libxml2 only ever sees
/// valid UTF-8, and a document that cannot be decoded is an error with its position.
enum DocumentText {
  /// The encodings read, by the names a declaration may give them (lowercased).
  private static let declared: [String: String.Encoding] = [
    "utf-8": .utf8, "utf8": .utf8, "us-ascii": .ascii, "ascii": .ascii,
    "iso-8859-1": .isoLatin1, "latin1": .isoLatin1, "iso_8859-1": .isoLatin1,
    "iso-8859-2": .isoLatin2, "windows-1250": .windowsCP1250, "windows-1251": .windowsCP1251,
    "windows-1252": .windowsCP1252, "cp1252": .windowsCP1252, "windows-1253": .windowsCP1253,
    "windows-1254": .windowsCP1254,
  ]

  /// `data` as UTF-8, its declaration (if any) saying so.
  static func utf8(_ data: Data) throws(XMLPathError) -> Data {
    if let (encoding, name, skip) = unicodeForm(of: data) {
      guard let text = String(data: data.dropFirst(skip), encoding: encoding) else {
        throw .malformed(line: 1, column: 1, reason: "the document is not valid \(name)")
      }
      return Data(sayingUTF8(text).utf8)
    }
    let name = declaredEncoding(of: data)?.lowercased() ?? "utf-8"
    guard let encoding = declared[name] else {
      throw .malformed(
        line: 1, column: 1,
        reason: "the document's encoding \"\(name)\" is not supported (UTF-8, UTF-16, UTF-32, "
          + "US-ASCII, ISO-8859-1, ISO-8859-2 and Windows-1250 to 1254 are)")
    }
    if encoding == .utf8 || encoding == .ascii {
      if let (line, column) = firstInvalidUTF8(in: data) {
        throw .malformed(
          line: line, column: column, reason: "a byte that is not \(name.uppercased())")
      }
      return data
    }
    guard let text = String(data: data, encoding: encoding) else {
      throw .malformed(line: 1, column: 1, reason: "the document is not valid \(name)")
    }
    return Data(sayingUTF8(text).utf8)
  }

  /// The Unicode encoding that libxml2 would detect from the first bytes (a byte order mark,
  /// or the zero bytes around `<?`), its name, and the bytes of the mark to skip.
  private static func unicodeForm(of data: Data) -> (String.Encoding, String, Int)? {
    let forms: [([UInt8], String.Encoding, String, Int)] = [
      ([0x00, 0x00, 0xFE, 0xFF], .utf32BigEndian, "UTF-32", 4),
      ([0xFF, 0xFE, 0x00, 0x00], .utf32LittleEndian, "UTF-32", 4),
      ([0x00, 0x00, 0x00, 0x3C], .utf32BigEndian, "UTF-32", 0),
      ([0x3C, 0x00, 0x00, 0x00], .utf32LittleEndian, "UTF-32", 0),
      ([0xFE, 0xFF], .utf16BigEndian, "UTF-16", 2),
      ([0xFF, 0xFE], .utf16LittleEndian, "UTF-16", 2),
      ([0x00, 0x3C, 0x00, 0x3F], .utf16BigEndian, "UTF-16", 0),
      ([0x3C, 0x00, 0x3F, 0x00], .utf16LittleEndian, "UTF-16", 0),
    ]
    return forms.first { data.starts(with: $0.0) }.map { ($0.1, $0.2, $0.3) }
  }

  /// The encoding an XML declaration at the start names, if any.
  private static func declaredEncoding(of data: Data) -> String? {
    let head = String(decoding: data.prefix(512), as: UTF8.self)
    guard let declaration = head.firstMatch(of: #/^(\x{FEFF})?<\?xml[^>]*\?>/#),
      let encoding = declaration.output.0.firstMatch(of: #/encoding\s*=\s*["']([^"']*)["']/#)
    else { return nil }
    return String(encoding.output.1)
  }

  /// `text` with the encoding its declaration names, if any, replaced by UTF-8.
  private static func sayingUTF8(_ text: String) -> String {
    guard let declaration = text.firstMatch(of: #/^(\x{FEFF})?<\?xml[^>]*\?>/#) else {
      return text
    }
    let said = declaration.output.0.replacing(
      #/encoding\s*=\s*["'][^"']*["']/#, with: "encoding=\"UTF-8\"", maxReplacements: 1)
    return String(said) + text[declaration.range.upperBound...]
  }

  /// The line and column (from 1) of the first byte of `data` that is not UTF-8.
  private static func firstInvalidUTF8(in data: Data) -> (line: Int, column: Int)? {
    guard String(validating: data, as: UTF8.self) == nil else { return nil }
    return data.withUnsafeBytes { bytes in
      var iterator = bytes.makeIterator()
      var parser = Unicode.UTF8.ForwardParser()
      var offset = 0
      while case .valid(let encoded) = parser.parseScalar(from: &iterator) {
        offset += encoded.count
      }
      let place = TextPosition(of: offset, in: bytes)
      return (place.line, place.column)
    }
  }
}
