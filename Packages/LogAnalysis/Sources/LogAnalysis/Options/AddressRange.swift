import Foundation

/// An IPv4 or IPv6 address, or a CIDR range of them (`10.0.0.0/8`, `2001:db8::/32`).
public struct AddressRange: Sendable, Equatable, Codable, CustomStringConvertible {
  /// The network's bytes: 4 for IPv4, 16 for IPv6.
  public let network: [UInt8]
  /// How many leading bits of an address must equal the network's.
  public let prefix: Int

  /// Reads `text`: an address, optionally followed by `/` and a prefix length.
  public init(_ text: String) throws(AnalysisOptionError) {
    let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
    guard let address = Self.address(String(parts[0])) else {
      throw AnalysisOptionError("'\(text)' is not an IPv4 or IPv6 address or CIDR range")
    }
    let bits = address.count * 8
    var prefix = bits
    if parts.count == 2 {
      guard let length = Int(parts[1]), (0...bits).contains(length), parts[1].allSatisfy(\.isNumber)
      else {
        throw AnalysisOptionError("'\(text)': the prefix length must be 0 to \(bits)")
      }
      prefix = length
    }
    self.network = address
    self.prefix = prefix
  }

  /// `10.0.0.0/8`, `2001:db8::/32`.
  public var description: String {
    var text = [CChar](repeating: 0, count: 64)
    let family = network.count == 4 ? AF_INET : AF_INET6
    _ = network.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, 64) }
    return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      + "/\(prefix)"
  }

  /// Whether `address` (4 or 16 bytes) is in the range.
  func contains(_ address: [UInt8]) -> Bool {
    guard address.count == network.count else { return false }
    var remaining = prefix
    for (a, b) in zip(address, network) where remaining > 0 {
      let mask: UInt8 = remaining >= 8 ? 0xff : ~(0xff >> UInt8(remaining))
      if a & mask != b & mask { return false }
      remaining -= 8
    }
    return true
  }

  /// The bytes of an IPv4 or IPv6 address in text (an IPv6 one may be in brackets), or nil.
  static func address(_ text: String) -> [UInt8]? {
    var text = Substring(text)
    if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
    var v4 = in_addr()
    if inet_pton(AF_INET, String(text), &v4) == 1 {
      return withUnsafeBytes(of: &v4) { Array($0) }
    }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, String(text), &v6) == 1 {
      return withUnsafeBytes(of: &v6) { Array($0) }
    }
    return nil
  }
}
