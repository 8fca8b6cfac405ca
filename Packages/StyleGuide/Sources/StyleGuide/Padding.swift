/// Columns of a fixed width.
extension String {
  /// Right-aligned in `width` characters.
  public func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }

  /// Left-aligned in `width` characters.
  public func rightPadded(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}

/// Text cut to a number of columns, marked with "…" where it was cut.
extension String {
  /// At most `width` characters, cut at the end.
  public func cut(to width: Int) -> String {
    guard count > width else { return self }
    return width > 0 ? String(prefix(width - 1)) + "…" : ""
  }

  /// At most `width` characters, cut in the middle, so that names that differ only at their
  /// end (`report-2024-01.csv`, `report-2024-02.csv`) still differ, as aria2c and rsync cut.
  public func cutInMiddle(to width: Int) -> String {
    guard count > width else { return self }
    guard width > 2 else { return cut(to: width) }
    let tail = (width - 1) / 2
    return String(prefix(width - 1 - tail)) + "…" + String(suffix(tail))
  }
}
