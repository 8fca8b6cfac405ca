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

/// An option value that cannot be used, with the reason.
public struct AnalysisOptionError: Error, Equatable, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}

/// User agents of crawlers, monitors and HTTP libraries: the fragments that `--exclude-bots`
/// looks for, without regard to case.
public enum BotPatterns {
  /// The built-in fragments. "bot", "crawl" and "spider" cover most crawlers (Googlebot,
  /// bingbot, AhrefsBot, YandexBot, Baiduspider, …); the others name agents without them:
  /// tools and libraries, monitors, and the feed readers and link expanders that GoAccess's
  /// crawler and feed lists and Matomo's bot list hold (UniversalFeedParser, Tiny Tiny RSS,
  /// FeedBurner, …), so that a visit is a crawler's in all three.
  public static let builtIn = [
    "bot", "crawl", "spider", "slurp", "archiver", "facebookexternalhit", "mediapartners-google",
    "feedfetcher", "python-requests", "python-urllib", "aiohttp", "curl/", "wget/",
    "go-http-client", "java/", "libwww-perl", "okhttp", "apache-httpclient", "scrapy",
    "headlesschrome", "phantomjs", "lighthouse", "pingdom", "uptimerobot", "monitoring",
    "nagios", "zgrab", "masscan", "nmap",
    "universalfeedparser", "tiny tiny rss", "feedburner", "feedly", "feedbin", "newsblur",
    "inoreader", "theoldreader", "commafeed", "simplepie", "magpierss", "bloglines", "feeddemon",
    "flipboard", "feedvalidator", "rss reader", "embedly", "bingpreview", "nutch", "libfetch",
    "http_request2", "httpclient", "httrack", "ia_archiver", "qwantify", "yahoo! slurp",
  ]

  /// The fragments a bots file lists: one a line, blanks around them dropped; empty lines
  /// and lines starting with `#` are passed over.
  public static func listed(in text: String) -> [String] {
    text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty && !$0.hasPrefix("#") }
  }

  /// The fragments the bots file at `path` lists (see `listed(in:)`); an error when it cannot
  /// be read as UTF-8 text.
  public static func listed(inFileAt path: String) throws(AnalysisOptionError) -> [String] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      throw AnalysisOptionError("cannot read \(path) as UTF-8 text")
    }
    return listed(in: text)
  }
}
