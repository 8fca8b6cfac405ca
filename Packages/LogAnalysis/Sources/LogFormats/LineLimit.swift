/// How long a line may be and still be read as one.
package enum LineLimit {
  /// The longest line that is read as a line: 1 MiB. Apache refuses a request line or a
  /// header field over 8,190 bytes (`LimitRequestLine`, `LimitRequestFieldSize`), so a real
  /// access-log line is a few times that at most; a longer one is junk (a binary file, a
  /// stream without newlines), counted as one malformed line and skipped as it is read,
  /// without holding more than this of it.
  package static let maxLength = 1 << 20

  /// Whether a line of `count` bytes (without its newline) is too long to be read.
  @inline(__always) package static func isOverlong(_ count: Int) -> Bool { count > maxLength }
}
