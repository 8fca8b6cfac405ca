import Foundation

/// HTTP's dates (`Last-Modified`, `Retry-After`, `Date`), read in the three formats RFC 9110
/// (5.6.7) has recipients accept: the IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, the
/// obsolete RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT` and C's asctime `Sun Nov  6 08:49:37
/// 1994`, all in GMT.
public enum HTTPDate {
  /// The moment `text` names, or nil when it is in none of the formats.
  public static func parse(_ text: String) -> Date? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    // asctime pads a one-digit day with a space; the formatter reads one space.
    let single = trimmed.split(separator: " ", omittingEmptySubsequences: true)
      .joined(separator: " ")
    for format in formats {
      if let date = formatter(format).date(from: single) { return date }
    }
    return nil
  }

  private static let formats = [
    "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
  ]

  private static func formatter(_ format: String) -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = format
    return formatter
  }
}
