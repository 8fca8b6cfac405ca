/// The times that access logs write, read as seconds since 1970 (UTC), working on bytes.
public enum LogTime {
  /// Reads Apache's `10/Oct/2000:13:55:36 -0700` (in brackets or not), ISO 8601
  /// (`2000-10-10T13:55:36Z`, `+02:00`, a fraction, a space for the `T`; no zone is UTC), or
  /// a number of seconds since 1970 (a fraction is dropped). Nil for anything else.
  package static func seconds(_ bytes: UnsafeRawBufferPointer) -> Int64? {
    reading(bytes)?.seconds
  }

  /// The time as it was written, in the zone of the line: its seconds since 1970 with the
  /// zone's offset added (a time without a zone, and a number, are UTC). What a panel of
  /// hours and days counts by, as the server's clock showed it.
  package static func localSeconds(_ bytes: UnsafeRawBufferPointer) -> Int64? {
    reading(bytes).map { $0.seconds + $0.offset }
  }

  /// The seconds since 1970 and the offset of the zone written (seconds east of UTC).
  private static func reading(_ bytes: UnsafeRawBufferPointer) -> (seconds: Int64, offset: Int64)? {
    // Apache's, nearly every line's, at fixed places.
    let start = bytes.first == UInt8(ascii: "[") ? 1 : 0
    if bytes.count >= start + 26 && ApacheTime.isTime(bytes, at: start) {
      return ApacheTime.reading(bytes, at: start)
    }
    var text = Cursor(bytes)
    if text.peek == UInt8(ascii: "[") { text.index += 1 }
    guard let first = text.peek, isDigit(first) else { return nil }
    if text.byte(at: 2) == UInt8(ascii: "/") { return apache(&text) }
    if text.byte(at: 4) == UInt8(ascii: "-") {
      return text.isoTime().map { ($0.seconds, $0.offset) }
    }
    let whole = text.number(maxDigits: 18)
    guard let whole, text.isAtEnd || text.peek == UInt8(ascii: ".") else { return nil }
    return (whole, 0)
  }

  /// Reads W3C's separate `date` (`2000-10-10`) and `time` (`13:55:36`, UTC) fields.
  package static func seconds(date: UnsafeRawBufferPointer, time: UnsafeRawBufferPointer) -> Int64?
  {
    var day = Cursor(date)
    guard let days = day.date(), day.isAtEnd else { return nil }
    var clock = Cursor(time)
    guard let seconds = clock.clock(), clock.isAtEnd || clock.peek == UInt8(ascii: ".") else {
      return nil
    }
    return days * 86_400 + seconds.seconds
  }

  /// Reads a `--since` or `--until` bound: an ISO 8601 date (`2024-05-01`) or time
  /// (`2024-05-01T10:00`, seconds optional, `Z` or an offset optional; UTC without one).
  /// With `end`, returns the first second after the day, minute or second the text names,
  /// so that an end bound includes all of it.
  public static func bound(_ text: String, end: Bool) throws(AnalysisOptionError) -> Int64 {
    let parsed = Array(text.utf8).withUnsafeBytes { bytes -> (seconds: Int64, unit: Int64)? in
      var cursor = Cursor(bytes)
      guard let parsed = cursor.isoTime(), cursor.isAtEnd else { return nil }
      return (parsed.seconds, parsed.unit)
    }
    guard let parsed else {
      throw AnalysisOptionError(
        "'\(text)' is not an ISO 8601 date or time (2024-05-01 or 2024-05-01T10:00:00Z)")
    }
    return end ? parsed.seconds + parsed.unit : parsed.seconds
  }

  /// Days from 1970-01-01 to the given date of the proleptic Gregorian calendar (Howard
  /// Hinnant's `days_from_civil`).
  package static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  private static func apache(_ text: inout Cursor) -> (seconds: Int64, offset: Int64)? {
    guard let day = text.number(maxDigits: 2), text.skip("/"), let month = text.monthName(),
      text.skip("/"), let year = text.number(maxDigits: 4), text.skip(":"),
      let clock = text.clock(), clock.unit == 1
    else { return nil }
    let local = days(year: year, month: month, day: day) * 86_400 + clock.seconds
    guard text.skip(" ") else { return (local, 0) }
    guard let offset = text.offset(colon: false) else { return nil }
    return (local - offset, offset)
  }

  /// A strftime pattern with its shorthands written out: `%T`, `%F`, `%D` and `%R` as
  /// `%H:%M:%S`, `%Y-%m-%d`, `%m/%d/%y` and `%H:%M`, for `reading(_:pattern:)`.
  package static func expandingShorthands(_ pattern: [UInt8]) -> [UInt8] {
    let shorthands: [UInt8: String] = [
      UInt8(ascii: "T"): "%H:%M:%S", UInt8(ascii: "F"): "%Y-%m-%d",
      UInt8(ascii: "D"): "%m/%d/%y", UInt8(ascii: "R"): "%H:%M",
    ]
    var expanded: [UInt8] = []
    var index = 0
    while index < pattern.count {
      if pattern[index] == UInt8(ascii: "%"), index + 1 < pattern.count {
        expanded +=
          shorthands[pattern[index + 1]].map { Array($0.utf8) }
          ?? [pattern[index], pattern[index + 1]]
        index += 2
        continue
      }
      expanded.append(pattern[index])
      index += 1
    }
    return expanded
  }

  /// Reads `bytes` as the strftime `pattern` of an Apache `%{…}t` writes it, its shorthands
  /// expanded (`expandingShorthands`): `%Y` `%y` `%m` `%d` `%e` `%H` `%I` `%M` `%S` `%p` `%b`
  /// `%B` `%h` `%z` `%Z` `%s`, a fraction (`%f`, digits), `%%`; a space matches a run of
  /// spaces, other bytes themselves. A time without a zone is UTC; a zone name (`%Z`) is UTC
  /// unless it is an offset. The seconds since 1970 and the offset east of UTC; nil when
  /// `bytes` do not follow it.
  package static func reading(
    _ bytes: UnsafeRawBufferPointer, pattern expanded: UnsafeRawBufferPointer
  )
    -> (seconds: Int64, offset: Int64)?
  {
    var text = Cursor(bytes)
    var (year, month, day): (Int64, Int64, Int64) = (1970, 1, 1)
    var (hour, minute, second, offset): (Int64, Int64, Int64, Int64) = (0, 0, 0, 0)
    var (afternoon, epoch): (Bool?, Int64?) = (nil, nil)
    var index = 0
    while index < expanded.count {
      let byte = expanded[index]
      index += 1
      guard byte == UInt8(ascii: "%"), index < expanded.count else {
        if byte == UInt8(ascii: " ") {
          guard text.skip(" ") else { return nil }
          while text.skip(" ") {}
        } else {
          guard text.peek == byte else { return nil }
          text.index += 1
        }
        continue
      }
      let letter = Unicode.Scalar(expanded[index])
      index += 1
      switch letter {
      case "Y":
        guard let value = text.number(maxDigits: 4) else { return nil }
        year = value
      case "y":
        guard let value = text.digits(2) else { return nil }
        year = value < 69 ? 2000 + value : 1900 + value
      case "m":
        guard let value = text.number(maxDigits: 2) else { return nil }
        month = value
      case "d", "e":
        while text.skip(" ") {}
        guard let value = text.number(maxDigits: 2) else { return nil }
        day = value
      case "H", "I":
        guard let value = text.number(maxDigits: 2) else { return nil }
        hour = value
      case "M":
        guard let value = text.number(maxDigits: 2) else { return nil }
        minute = value
      case "S":
        guard let value = text.number(maxDigits: 2) else { return nil }
        second = value
      case "f": guard text.number(maxDigits: 18) != nil else { return nil }
      case "p":
        guard let first = text.peek, text.byte(at: 1).map({ $0 | 0x20 }) == UInt8(ascii: "m")
        else { return nil }
        afternoon = first | 0x20 == UInt8(ascii: "p")
        text.index += 2
      case "b", "h", "B":
        guard let value = text.monthName() else { return nil }
        month = value
        if letter == "B" {
          while let next = text.peek, next | 0x20 >= 97, next | 0x20 <= 122 { text.index += 1 }
        }
      case "z":
        if text.skip("Z") { break }
        guard let value = text.offset(colon: true) else { return nil }
        offset = value
      case "Z":
        if let value = text.offset(colon: true) {
          offset = value
        } else {
          while let next = text.peek, next | 0x20 >= 97, next | 0x20 <= 122 { text.index += 1 }
        }
      case "s":
        guard let value = text.number(maxDigits: 18) else { return nil }
        epoch = value
      case "%": guard text.skip("%") else { return nil }
      default: return nil
      }
    }
    guard text.isAtEnd else { return nil }
    if let epoch { return (epoch, 0) }
    if let afternoon {
      guard (1...12).contains(hour) else { return nil }
      hour = hour % 12 + (afternoon ? 12 : 0)
    }
    guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
    else { return nil }
    let local =
      days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60
      + second
    return (local - offset, offset)
  }

  package static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }
}

/// A reading position in bytes.
private struct Cursor {
  package let bytes: UnsafeRawBufferPointer
  package var index = 0

  package init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  package var isAtEnd: Bool { index >= bytes.count }
  package var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

  package func byte(at offset: Int) -> UInt8? {
    index + offset < bytes.count ? bytes[index + offset] : nil
  }

  package mutating func skip(_ character: Unicode.Scalar) -> Bool {
    guard peek == UInt8(ascii: character) else { return false }
    index += 1
    return true
  }

  /// One to `maxDigits` decimal digits.
  package mutating func number(maxDigits: Int) -> Int64? {
    var value: Int64 = 0
    let start = index
    while let byte = peek, LogTime.isDigit(byte), index - start < maxDigits {
      value = value * 10 + Int64(byte - UInt8(ascii: "0"))
      index += 1
    }
    return index > start ? value : nil
  }

  /// Exactly `count` digits.
  package mutating func digits(_ count: Int) -> Int64? {
    let start = index
    guard let value = number(maxDigits: count), index - start == count else { return nil }
    return value
  }

  /// `Jan` to `Dec`, in any case, as 1 to 12.
  package mutating func monthName() -> Int64? {
    guard index + 3 <= bytes.count else { return nil }
    let name =
      (UInt32(bytes[index] | 0x20) << 16) | (UInt32(bytes[index + 1] | 0x20) << 8)
      | UInt32(bytes[index + 2] | 0x20)
    guard let month = Self.months.firstIndex(of: name) else { return nil }
    index += 3
    return Int64(month + 1)
  }

  /// The month names in lower case, three bytes packed in each.
  private static let months: [UInt32] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
  ].map { $0.utf8.reduce(0) { $0 << 8 | UInt32($1) } }

  /// `YYYY-MM-DD` as days since 1970.
  package mutating func date() -> Int64? {
    guard let year = digits(4), skip("-"), let month = digits(2), (1...12).contains(month),
      skip("-"), let day = digits(2), (1...31).contains(day)
    else { return nil }
    return LogTime.days(year: year, month: month, day: day)
  }

  /// `HH:MM` or `HH:MM:SS` as seconds into the day, and the unit the text gives (60 or 1).
  package mutating func clock() -> (seconds: Int64, unit: Int64)? {
    guard let hour = digits(2), hour < 24, skip(":"), let minute = digits(2), minute < 60 else {
      return nil
    }
    guard skip(":") else { return (hour * 3600 + minute * 60, 60) }
    guard let second = digits(2), second <= 60 else { return nil }
    return (hour * 3600 + minute * 60 + second, 1)
  }

  /// `+HHMM`, `-HH:MM` (with `colon`, the colon is optional) as seconds east of UTC.
  package mutating func offset(colon: Bool) -> Int64? {
    guard let sign = peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else {
      return nil
    }
    index += 1
    guard let hours = digits(2) else { return nil }
    if colon { _ = skip(":") }
    guard let minutes = digits(2) else { return nil }
    let seconds = hours * 3600 + minutes * 60
    return sign == UInt8(ascii: "-") ? -seconds : seconds
  }

  /// An ISO 8601 date, optionally followed by `T` (or a space) and a time, a fraction and a
  /// zone; its seconds since 1970, the unit it names (a day, a minute or a second) and the
  /// zone's offset (seconds east of UTC; 0 without one).
  package mutating func isoTime() -> (seconds: Int64, unit: Int64, offset: Int64)? {
    guard let days = date() else { return nil }
    guard peek == UInt8(ascii: "T") || peek == UInt8(ascii: " ") || peek == UInt8(ascii: "t")
    else { return (days * 86_400, 86_400, 0) }
    index += 1
    guard let clock = clock() else { return nil }
    if skip(".") { _ = number(maxDigits: 18) }
    let seconds = days * 86_400 + clock.seconds
    if skip("Z") || skip("z") || isAtEnd { return (seconds, clock.unit, 0) }
    guard let offset = offset(colon: true) else { return nil }
    return (seconds - offset, clock.unit, offset)
  }

}

extension LogTime {
  /// The day (since 1970) and the second into it of `time`.
  @inline(__always)
  package static func dayAndSecond(_ time: Int64) -> (day: Int64, second: Int64) {
    let (day, second) = time.quotientAndRemainder(dividingBy: 86_400)
    return second < 0 ? (day - 1, second + 86_400) : (day, second)
  }
}
