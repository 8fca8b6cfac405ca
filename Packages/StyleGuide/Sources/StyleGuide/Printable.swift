extension String {
  /// This text safe to print on a terminal, the one sanitiser for text from outside (a
  /// server's error body, a feed's song names, a log's pages, an input file's lines): control
  /// characters (C0 with CR, LF and ESC, DEL, and C1 with CSI U+009B and NEL U+0085), which
  /// can move the cursor, rewrite a line, set the window title or write the clipboard
  /// (OSC 52), and the bidirectional overrides that reorder what follows them, are shown as
  /// `\xHH` (`\u{HHHH}` above FF). A backslash itself is left as it is.
  public var printable: String {
    guard unicodeScalars.contains(where: Self.isControl) else { return self }
    var out = ""
    for scalar in unicodeScalars {
      if Self.isControl(scalar) {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out += scalar.value <= 0xFF ? "\\x" + (hex.count == 1 ? "0" + hex : hex) : "\\u{\(hex)}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// C0, DEL, C1, and the bidirectional embeddings, overrides and isolates.
  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    return value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
      || (0x2066...0x2069).contains(value)
  }
}
