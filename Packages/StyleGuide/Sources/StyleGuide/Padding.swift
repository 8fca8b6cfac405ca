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
