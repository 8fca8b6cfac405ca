/// A bar for a row of a ranking: its share of the largest row, left-aligned in `width` cells.
public enum ShareBar {
  /// Block characters in eighths of a cell, or `#` in whole cells with `ascii` (for a pipe
  /// or `NO_COLOR`); padded with spaces to `width`.
  public static func render(_ fraction: Double, width: Int, ascii: Bool) -> String {
    let fraction = fraction.isFinite ? min(max(fraction, 0), 1) : 0
    guard width > 0 else { return "" }
    if ascii {
      let cells = Int((fraction * Double(width)).rounded())
      return String(repeating: "#", count: cells) + String(repeating: " ", count: width - cells)
    }
    let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
    let filled = Int((fraction * Double(width * 8)).rounded())
    let full = min(width, filled / 8)
    let partial = full < width ? eighths[filled % 8] : ""
    let used = full + (partial.isEmpty ? 0 : 1)
    return String(repeating: "█", count: full) + partial
      + String(repeating: " ", count: width - used)
  }
}
