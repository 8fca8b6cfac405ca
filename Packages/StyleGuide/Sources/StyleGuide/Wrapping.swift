/// Text in lines of a terminal's width, broken between pieces, never inside one.
extension Array where Element == String {
  /// The pieces joined by `separator` in lines of at most `width` characters; a line that
  /// goes on below ends with the separator (its trailing spaces dropped). A piece longer than
  /// a line has a line of its own, as it is.
  public func wrapped(joinedBy separator: String, width: Int) -> [String] {
    let mark = String(separator.reversed().drop { $0 == " " }.reversed())
    var lines: [String] = []
    var line = ""
    for (index, piece) in enumerated() {
      // A line that another piece follows needs room for its mark.
      let after = index == count - 1 ? 0 : mark.count
      if line.isEmpty {
        line = piece
      } else if line.count + separator.count + piece.count + after <= width {
        line += separator + piece
      } else {
        lines.append(line + mark)
        line = piece
      }
    }
    return lines + [line]
  }
}
