import Foundation

/// The one way fetcher writes JSON: keys sorted, slashes as they are (`http://`, not
/// `http:\/\/`), dates in ISO 8601, and numbers that are not finite as strings ("nan"), so
/// that encoding a value of strings, numbers, dates and arrays of them cannot fail. Every
/// control character is escaped, as a terminal would act on it: `JSONEncoder` escapes C0
/// (ESC is `\u001b`), and DEL and the C1 controls (U+0080 to U+009F: CSI, NEL…) are escaped
/// here too.
public enum JSONOutput {
  /// `value` as JSON on one line, or indented with `pretty`.
  public static func string(_ value: some Encodable, pretty: Bool = false) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    if pretty { encoder.outputFormatting.insert(.prettyPrinted) }
    encoder.dateEncodingStrategy = .iso8601
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    do {
      return escapingControls(try encoder.encode(value))
    } catch {
      // Only a type whose own encode(to:) throws gets here: a fault in the program.
      preconditionFailure("cannot write \(type(of: value)) as JSON: \(error)")
    }
  }

  /// `json` with DEL and each C1 control written `\u00XX`: they stand only inside strings,
  /// where the escape means the same character.
  private static func escapingControls(_ json: Data) -> String {
    // In UTF-8, DEL is 0x7F and a C1 control 0xC2 0x80...0x9F.
    guard json.contains(where: { $0 == 0x7F || $0 == 0xC2 }) else {
      return String(decoding: json, as: UTF8.self)
    }
    var escaped = ""
    for scalar in String(decoding: json, as: UTF8.self).unicodeScalars {
      if scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
        let hex = String(scalar.value, radix: 16)
        escaped += "\\u00" + hex
      } else {
        escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }
}
