/// Human-readable sizes and durations.
public enum Units {
  /// "999 B", "1.5 kB", "20.0 MB", "1.1 GB" (decimal units).
  public static func bytes(_ count: Int64) -> String {
    let units = ["B", "kB", "MB", "GB", "TB"]
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

  /// "0:07", "1:05", "2:03:04".
  public static func clock(_ duration: Duration) -> String {
    let total = max(0, Int(duration.components.seconds))
    let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60)
    let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
    return hours > 0
      ? "\(hours):\(twoDigits(minutes)):\(twoDigits(seconds))" : "\(minutes):\(twoDigits(seconds))"
  }
}
