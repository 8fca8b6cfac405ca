import Foundation
import HTTPClient

/// Safe file names for downloads: no folders, no `..`, no control characters.
public enum FileName {
  /// `candidate` reduced to a plain file name, or nil when nothing usable is left.
  public static func sanitised(_ candidate: String) -> String? {
    let lastComponent =
      candidate.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last
      .map(String.init) ?? ""
    let cleaned = lastComponent.unicodeScalars.filter { !isControl($0) }
    var name = String(String.UnicodeScalarView(cleaned)).trimmingWhitespace
    while name.hasPrefix(".") { name.removeFirst() }
    guard !name.isEmpty else { return nil }
    return cut(name, toBytes: maxBytes)
  }

  /// Whether `scalar` is a control or format character (`CharacterSet.controlCharacters`,
  /// without its cost for every character of every name).
  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F }
    switch scalar.properties.generalCategory {
    case .control, .format: return true
    default: return false
    }
  }

  /// The longest name kept, in UTF-8 bytes: file systems take 255, and `.part` and a
  /// renaming suffix must fit after it.
  public static let maxBytes = 200

  /// `name` in at most `bytes` UTF-8 bytes, cut between characters, keeping a short
  /// extension (`….iso`).
  static func cut(_ name: String, toBytes bytes: Int) -> String {
    guard name.utf8.count > bytes else { return name }
    let dot = name.lastIndex(of: ".")
    let suffix = dot.map { String(name[$0...]) }.flatMap { $0.utf8.count <= 16 ? $0 : nil } ?? ""
    var kept = ""
    for character in name {
      guard kept.utf8.count + character.utf8.count + suffix.utf8.count <= bytes else { break }
      kept.append(character)
    }
    return kept + suffix
  }

  /// The name a `Content-Disposition` header gives: its `filename*` (RFC 8187,
  /// `UTF-8''percent%20encoded`) when there is one, else its `filename`, a token or a quoted
  /// string whose `;` and escaped `\"` belong to the name.
  public static func fromContentDisposition(_ header: String) -> String? {
    let parameters = Self.parameters(of: header)
    if let extended = parameters["filename*"] {
      let value = extended.components(separatedBy: "''").last ?? ""
      if let decoded = value.removingPercentEncoding, let name = sanitised(decoded) {
        return name
      }
    }
    return parameters["filename"].flatMap(sanitised)
  }

  /// The `name=value` parameters after the first `;` of a header, names lowercased; a quoted
  /// value unquoted (RFC 9110 quoted-string). The first of a name wins.
  private static func parameters(of header: String) -> [String: String] {
    var parameters: [String: String] = [:]
    var rest = Substring(header)
    guard let start = rest.firstIndex(of: ";") else { return [:] }
    rest = rest[rest.index(after: start)...]
    while !rest.isEmpty {
      let name = rest.prefix { $0 != "=" && $0 != ";" }
      rest = rest.dropFirst(name.count)
      var value = ""
      if rest.first == "=" {
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
        let quoted = rest.first == "\""
        if quoted {
          rest = rest.dropFirst()
          while let character = rest.first, character != "\"" {
            rest = rest.dropFirst()
            if character == "\\", let escaped = rest.first {
              value.append(escaped)
              rest = rest.dropFirst()
            } else {
              value.append(character)
            }
          }
          rest = rest.dropFirst()
        }
        let token = rest.prefix { $0 != ";" }
        rest = rest.dropFirst(token.count)
        if !quoted { value = token.trimmingWhitespace }
      }
      rest = rest.drop { $0 == ";" }
      let key = name.trimmingWhitespace.lowercased()
      if !key.isEmpty, parameters[key] == nil { parameters[key] = value }
    }
    return parameters
  }

  /// Whether `name` ends in `.part`, the suffix of a download's file while it is written
  /// (`PartFile`): no download may be given such a name.
  public static func isPartFileName(_ name: String) -> Bool {
    name.hasSuffix(".part")
  }

  /// The name for a download of `url`: its last path component, or "download".
  public static func fromURL(_ url: URL) -> String {
    sanitised(url.lastPathComponent.removingPercentEncoding ?? url.lastPathComponent)
      ?? "download"
  }

  /// `name` with `.number` before its extension, as aria2c renames a taken name:
  /// `file.tar.gz` → `file.tar.1.gz`, `README` → `README.1`, `.profile` → `.profile.1`.
  public static func numbered(_ name: String, _ number: Int) -> String {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
      return "\(name).\(number)"
    }
    return "\(name[..<dot]).\(number)\(name[dot...])"
  }
}
