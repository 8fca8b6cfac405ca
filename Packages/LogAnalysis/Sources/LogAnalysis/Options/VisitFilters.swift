import Foundation

/// Which visits count. A line that a filter leaves out is neither a visit nor malformed.
public struct VisitFilters: Sendable, Equatable, Codable {
  /// The response statuses kept, sorted; nil keeps every line, even one without a status.
  public var statuses: [Int]?
  /// The request methods kept, in capitals; nil keeps all.
  public var methods: [String]?
  /// Visits before this time (seconds since 1970, UTC) are left out.
  public var since: Int64?
  /// Visits at or after this time (seconds since 1970, UTC) are left out.
  public var until: Int64?
  /// Clients whose address falls in one of these are left out.
  public var excludedAddresses: [AddressRange]
  /// Leave out visits whose user agent contains one of `BotPatterns.builtIn` or `botPatterns`.
  public var excludeBots: Bool
  /// More user-agent fragments that mark a bot, matched without regard to case.
  public var botPatterns: [String]

  public init(
    statuses: [Int]? = nil, methods: [String]? = nil, since: Int64? = nil, until: Int64? = nil,
    excludedAddresses: [AddressRange] = [], excludeBots: Bool = false, botPatterns: [String] = []
  ) {
    self.statuses = statuses?.sorted()
    self.methods = methods?.map { $0.uppercased() }.sorted()
    self.since = since
    self.until = until
    self.excludedAddresses = excludedAddresses
    self.excludeBots = excludeBots
    self.botPatterns = botPatterns.map { $0.lowercased() }
  }

  var isEmpty: Bool { self == VisitFilters() }

  /// The statuses that `text` names: codes and classes separated by commas, as in
  /// `2xx,304`.
  public static func statuses(_ text: String) throws(AnalysisOptionError) -> [Int] {
    var codes = Set<Int>()
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
      let item = item.trimmingCharacters(in: .whitespaces).lowercased()
      if item.count == 3, item.hasSuffix("xx"), let digit = Int(item.prefix(1)),
        (1...5).contains(digit)
      {
        codes.formUnion(digit * 100..<digit * 100 + 100)
      } else if let code = Int(item), (100...599).contains(code), item.count == 3 {
        codes.insert(code)
      } else {
        throw AnalysisOptionError(
          "'\(item)' is not a status: give codes (100 to 599) or classes (2xx) separated by commas")
      }
    }
    return codes.sorted()
  }
}
