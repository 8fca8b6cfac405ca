import Foundation

/// The machine's routes, from `/proc/net/route` and `/proc/net/ipv6_route`.
enum Routes {
  /// Whether `hostName` may be reached: always for loopback names, otherwise when some
  /// interface other than loopback has a route that is up. Without the route tables
  /// (not Linux), nothing is known against it.
  static func mayReach(_ hostName: String) -> Bool {
    if isLoopback(hostName) { return true }
    let tables = ["/proc/net/route", "/proc/net/ipv6_route"].compactMap {
      try? String(contentsOfFile: $0, encoding: .utf8)
    }
    guard !tables.isEmpty else { return true }
    return tables.contains(where: hasRouteBeyondLoopback)
  }

  static func isLoopback(_ hostName: String) -> Bool {
    let name = hostName.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    return name == "localhost" || name.hasSuffix(".localhost") || name.hasPrefix("127.")
      || name == "::1"
  }

  /// Whether a route table (either format) has a route that is up on an interface other
  /// than `lo`. IPv4 lines start with the interface and hold the flags in the fourth field;
  /// IPv6 lines end with the interface and hold the flags in the ninth.
  static func hasRouteBeyondLoopback(_ table: String) -> Bool {
    let up: UInt32 = 0x1
    for line in table.split(separator: "\n") {
      let fields = line.split(whereSeparator: \.isWhitespace).map(String.init)
      let (interface, flags): (String?, String?) =
        fields.count == 10
        ? (fields.last, fields[8])
        : (fields.first, fields.count > 3 ? fields[3] : nil)
      guard let interface, interface != "lo", interface != "Iface",
        let flags, let value = UInt32(flags, radix: 16), value & up != 0
      else { continue }
      return true
    }
    return false
  }
}
