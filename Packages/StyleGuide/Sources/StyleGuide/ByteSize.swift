/// Sizes as people read them, in the units that sizes are given in (`--max-size 10M`,
/// `--limit-rate 500K`: powers of 1024, as curl takes them), so that what goes in is what comes
/// out, as wget and aria2c show them.
public enum ByteSize {
  /// "999 B", "1.5 KiB", "20.0 MiB", "1.1 GiB" (powers of 1024).
  public static func text(_ count: Int64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
    var value = Double(count)
    var unit = 0
    while value >= 1024 && unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    if unit == 0 { return "\(count) B" }
    var tenths = Int((value * 10).rounded())
    // 1023.96 KiB rounds to 1024.0 KiB: that is 1.0 MiB.
    if tenths >= 10240 && unit < units.count - 1 {
      unit += 1
      tenths = 10
    }
    return "\(tenths / 10).\(tenths % 10) \(units[unit])"
  }
}
