/// Sizes as people read them.
public enum ByteSize {
  /// "999 B", "1.5 kB", "20.0 MB", "1.1 GB" (decimal units).
  public static func text(_ count: Int64) -> String {
    let units = ["B", "kB", "MB", "GB", "TB", "PB", "EB"]
    var value = Double(count)
    var unit = 0
    while value >= 1000 && unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    if unit == 0 { return "\(count) B" }
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10) \(units[unit])"
  }
}
