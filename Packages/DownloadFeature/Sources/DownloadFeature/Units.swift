import StyleGuide

/// Human-readable sizes and durations.
public enum Units {
  /// "999 B", "1.5 KiB", "20.0 MiB", "1.1 GiB" (powers of 1024, as sizes are given).
  public static func bytes(_ count: Int64) -> String {
    ByteSize.text(count)
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
