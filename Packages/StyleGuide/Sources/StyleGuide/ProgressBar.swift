/// A text progress bar.
public enum ProgressBar {
  /// `width` cells, filled in eighths for `fraction` (0...1); all empty when it is unknown.
  public static func render(_ fraction: Double?, width: Int) -> String {
    let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
    guard let fraction, width > 0 else { return String(repeating: "░", count: max(0, width)) }
    let filled = Int((min(max(fraction, 0), 1) * Double(width * 8)).rounded(.down))
    let full = filled / 8
    let partial = full < width ? eighths[filled % 8] : ""
    let used = full + (partial.isEmpty ? 0 : 1)
    return String(repeating: "█", count: full) + partial
      + String(repeating: "░", count: width - used)
  }
}
