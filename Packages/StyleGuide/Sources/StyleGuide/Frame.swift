/// Draws a rounded box around lines of plain text.
public enum Frame {
  /// `lines` inside a box one space wider than the longest line on each side. The border is
  /// drawn with `styles.dim`.
  public static func box(_ lines: [String], styles: Styles) -> String {
    let width = lines.map(\.count).max() ?? 0
    let horizontal = String(repeating: "─", count: width + 2)
    let side = styles.dim("│")
    var rows = [styles.dim("╭\(horizontal)╮")]
    for line in lines {
      let padding = String(repeating: " ", count: width - line.count)
      rows.append("\(side) \(line)\(padding) \(side)")
    }
    rows.append(styles.dim("╰\(horizontal)╯"))
    return rows.joined(separator: "\n")
  }
}
