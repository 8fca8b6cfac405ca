import Foundation

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
}
