/// Apache's `%t`, `[10/Oct/2000:13:55:36 -0700]`, checked by its shape alone: two digits, a
/// month's name, four digits, the clock and the zone, each where it must be. Eight bytes at a
/// time, cheap enough for every line of the fast path; `LogTime` reads the value when it is
/// needed.
package enum ApacheTime {
  /// `[dd/Mon/yyyy:hh:mm:ss +zzzz]`
  package static let bracketedLength = 28

  /// Whether a bracketed time starts at `start` in `bytes`.
  @inline(__always)
  package static func isBracketed(_ bytes: UnsafeRawBufferPointer, at start: Int) -> Bool {
    guard start + bracketedLength <= bytes.count, bytes[start] == UInt8(ascii: "["),
      bytes[start + bracketedLength - 1] == UInt8(ascii: "]")
    else { return false }
    return isTime(bytes, at: start + 1)
  }

  // The 26 bytes as three words and two bytes (little-endian: byte i is bits 8i...).
  // dd/Mon/y | yyy:hh:m | m:ss +zz | zz
  private static let digitsA: UInt64 = 0xFF00_0000_0000_FFFF  // 0, 1, 7
  private static let slashesA: UInt64 = 0x00FF_0000_00FF_0000  // 2 and 6: '/'
  private static let expectedA: UInt64 = 0x002F_0000_002F_0000
  private static let digitsB: UInt64 = 0xFF00_FFFF_00FF_FFFF  // 8, 9, 10, 12, 13, 15
  private static let colonsB: UInt64 = 0x00FF_0000_FF00_0000  // 11 and 14: ':'
  private static let expectedB: UInt64 = 0x003A_0000_3A00_0000
  private static let digitsC: UInt64 = 0xFFFF_0000_FFFF_00FF  // 16, 18, 19, 22, 23
  private static let separatorsC: UInt64 = 0x0000_00FF_0000_FF00  // 17 ':' and 20 ' '
  private static let expectedC: UInt64 = 0x0000_0020_0000_3A00

  /// Whether `dd/Mon/yyyy:hh:mm:ss +zzzz` (26 bytes) starts at `start` in `bytes`, which holds
  /// them.
  @inline(__always)
  package static func isTime(_ bytes: UnsafeRawBufferPointer, at start: Int) -> Bool {
    let a = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self))
    let b = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start + 8, as: UInt64.self))
    let c = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start + 16, as: UInt64.self))
    let sign = bytes[start + 21]
    guard a & slashesA == expectedA, b & colonsB == expectedB, c & separatorsC == expectedC,
      sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
      allDigits(a, digitsA), allDigits(b, digitsB), allDigits(c, digitsC),
      LineParser.isDigit(bytes[start + 24]), LineParser.isDigit(bytes[start + 25])
    else { return false }
    return isMonth(UInt32(truncatingIfNeeded: a >> 24) & 0xFF_FFFF)
  }

  /// Whether the bytes of `word` that `mask` selects are all ASCII digits.
  @inline(__always)
  private static func allDigits(_ word: UInt64, _ mask: UInt64) -> Bool {
    let zeros: UInt64 = 0x3030_3030_3030_3030
    let x = (word & mask) | (zeros & ~mask)
    return ((x &+ 0x4646_4646_4646_4646) | (x &- zeros)) & 0x8080_8080_8080_8080 == 0
  }

  /// Whether three bytes (the lowest first) are a month's English abbreviation, in any case.
  @inline(__always)
  private static func isMonth(_ letters: UInt32) -> Bool {
    month(letters) != nil
  }

  /// The month (1 to 12) whose English abbreviation three bytes (the lowest first) are, in
  /// any case.
  @inline(__always)
  private static func month(_ letters: UInt32) -> Int64? {
    switch letters | 0x20_2020 {
    case 0x6E_616A: 1
    case 0x62_6566: 2
    case 0x72_616D: 3
    case 0x72_7061: 4
    case 0x79_616D: 5
    case 0x6E_756A: 6
    case 0x6C_756A: 7
    case 0x67_7561: 8
    case 0x70_6573: 9
    case 0x74_636F: 10
    case 0x76_6F6E: 11
    case 0x63_6564: 12
    default: nil
    }
  }

  /// The seconds since 1970 of the time at `start` in `bytes`, which `isTime` found there;
  /// nil when its clock is out of range. Read at fixed places, as `LogTime` reads any time.
  @inline(__always)
  package static func seconds(_ bytes: UnsafeRawBufferPointer, at start: Int) -> Int64? {
    reading(bytes, at: start)?.seconds
  }

  /// The seconds since 1970 and the zone's offset (seconds east of UTC) of the time at
  /// `start` in `bytes`, which `isTime` found there; nil when its clock is out of range.
  @inline(__always)
  package static func reading(_ bytes: UnsafeRawBufferPointer, at start: Int) -> (
    seconds: Int64, offset: Int64
  )? {
    let number = { (offset: Int) in twoDigits(bytes, at: start + offset) }
    let letters =
      UInt32(bytes[start + 3]) | UInt32(bytes[start + 4]) << 8 | UInt32(bytes[start + 5]) << 16
    guard let month = month(letters), let clock = clock(bytes, at: start) else { return nil }
    let day = LogTime.days(year: number(7) * 100 + number(9), month: month, day: number(0))
    let local = day * 86_400 + clock
    let zone = number(22) * 3600 + number(24) * 60
    let offset = bytes[start + 21] == UInt8(ascii: "-") ? -zone : zone
    return (local - offset, offset)
  }

  /// The seconds into its day of the time at `start` (`hh:mm:ss`, 12 bytes in); nil when the
  /// clock is out of range.
  @inline(__always)
  package static func clock(_ bytes: UnsafeRawBufferPointer, at start: Int) -> Int64? {
    let (hour, minute, second) = (
      twoDigits(bytes, at: start + 12), twoDigits(bytes, at: start + 15),
      twoDigits(bytes, at: start + 18)
    )
    guard hour < 24, minute < 60, second <= 60 else { return nil }
    return hour * 3600 + minute * 60 + second
  }

  @inline(__always)
  private static func twoDigits(_ bytes: UnsafeRawBufferPointer, at index: Int) -> Int64 {
    Int64(bytes[index] &- UInt8(ascii: "0")) * 10 + Int64(bytes[index + 1] &- UInt8(ascii: "0"))
  }
}

/// Reads Apache times as their lines wrote them (`ApacheTime.reading` without the zone),
/// remembering the last date read: the lines of a log nearly all share their neighbour's day,
/// so most times cost their clock alone.
package struct LocalApacheTimes {
  /// `dd/Mon/y` and `yyyy` of the last date read, as words, and its days since 1970.
  private var date: (UInt64, UInt32) = (0, 0)
  private var day: Int64 = 0

  package init() {}

  /// The seconds since 1970 of the time at `start` in `bytes` (which `isTime` found there)
  /// as written, in its own zone; nil when its clock is out of range.
  @inline(__always)
  package mutating func localSeconds(_ bytes: UnsafeRawBufferPointer, at start: Int) -> Int64? {
    let written = (
      bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self),
      bytes.loadUnaligned(fromByteOffset: start + 7, as: UInt32.self)
    )
    if written != date || date.0 == 0 {
      guard let seconds = ApacheTime.reading(bytes, at: start) else { return nil }
      let local = seconds.seconds + seconds.offset
      day = LogTime.dayAndSecond(local).day
      date = written
      return local
    }
    return ApacheTime.clock(bytes, at: start).map { day * 86_400 + $0 }
  }
}
