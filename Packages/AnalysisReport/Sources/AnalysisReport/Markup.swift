/// Building XHTML-compatible markup: every element closed, every attribute quoted, text and
/// attribute values escaped, so that the page parses as XML too.
enum Markup {
  /// `text` safe as element content or as a quoted attribute value. Control characters,
  /// which XML does not allow, become U+FFFD.
  static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
      default:
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
          || (0xFFFE...0xFFFF).contains(scalar.value)
        {
          out += "\u{FFFD}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }

  /// `text` cut to `limit` characters, with an ellipsis when cut.
  static func shortened(_ text: String, to limit: Int) -> String {
    text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
  }

  /// A number with at most two decimals, for SVG coordinates.
  static func number(_ value: Double) -> String {
    let rounded = (value * 100).rounded() / 100
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }

  /// "12.34%"
  static func percent(_ share: Double) -> String {
    let hundredths = Int((share * 10_000).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)%"
  }
}
