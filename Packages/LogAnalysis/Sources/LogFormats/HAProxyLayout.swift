/// HAProxy's HTTP log (`option httplog`), as its configuration manual's "HTTP log format"
/// describes it: `10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1
/// 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu} {} "GET /index.html HTTP/1.1"`,
/// after a syslog header (`Feb  6 12:14:14 localhost haproxy[14389]: `) when it logs to
/// syslog and none when it logs to standard output; the captured headers (`{…}`) only when
/// the configuration captures some. The client is the address before the accept date; the
/// time is that date (the proxy's local clock, without a zone: read as UTC); the status and
/// the bytes read are the fourth and fifth fields after it; the request is the last quoted
/// field (`<BADREQ>` names no page).
package enum HAProxyLayout {
  /// Reads `line` into `record`; false when it is not such a line.
  package static func parse(_ line: UnsafeRawBufferPointer, into record: inout LogRecord) -> Bool {
    guard let open = acceptDate(in: line) else { return false }
    // The client, `address:port`, is the field before the date.
    var clientStart = open - 1
    while clientStart > 0 && line[clientStart - 1] != UInt8(ascii: " ") { clientStart -= 1 }
    guard let colon = line[clientStart..<(open - 1)].lastIndex(of: UInt8(ascii: ":")),
      colon > clientStart
    else { return false }
    record.address = UnsafeRawBufferPointer(rebasing: line[clientStart..<colon])
    // The date to its fraction: `06/Feb/2009:12:14:14`.
    record.time = UnsafeRawBufferPointer(rebasing: line[(open + 1)..<(open + 21)])
    guard let close = line[(open + 21)...].firstIndex(of: UInt8(ascii: "]")) else { return false }
    // frontend, backend/server, timers, status, bytes read.
    var fields: [Range<Int>] = []
    var index = close + 1
    while fields.count < 5 && index < line.count {
      while index < line.count && line[index] == UInt8(ascii: " ") { index += 1 }
      let start = index
      while index < line.count && line[index] != UInt8(ascii: " ") { index += 1 }
      if start < index { fields.append(start..<index) }
    }
    guard fields.count == 5 else { return false }
    record.status = UnsafeRawBufferPointer(rebasing: line[fields[3]])
    record.size = UnsafeRawBufferPointer(
      rebasing: line[fields[4]].first == UInt8(ascii: "+")
        ? line[(fields[4].lowerBound + 1)..<fields[4].upperBound] : line[fields[4]])
    // The request, quoted, ends the line.
    var end = line.count
    while end > index && line[end - 1] == UInt8(ascii: " ") { end -= 1 }
    guard end > index + 1, line[end - 1] == UInt8(ascii: "\""),
      let quote = line[index..<(end - 1)].lastIndex(of: UInt8(ascii: "\""))
    else { return false }
    record.request = UnsafeRawBufferPointer(rebasing: line[(quote + 1)..<(end - 1)])
    return true
  }

  /// Where the accept date's `[` is: the first `[` that opens `dd/Mon/yyyy:HH:MM:SS.mmm]`
  /// after a space.
  private static func acceptDate(in line: UnsafeRawBufferPointer) -> Int? {
    var index = 1
    while index + 25 <= line.count {
      if line[index] == UInt8(ascii: "["), line[index - 1] == UInt8(ascii: " "),
        line[index + 3] == UInt8(ascii: "/"), line[index + 7] == UInt8(ascii: "/"),
        line[index + 12] == UInt8(ascii: ":"), line[index + 21] == UInt8(ascii: "."),
        LineParser.isDigit(line[index + 1]), LineParser.isDigit(line[index + 2])
      {
        return index
      }
      index += 1
    }
    return nil
  }
}
