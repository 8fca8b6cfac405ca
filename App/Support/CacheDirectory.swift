import Foundation

/// Where fetcher keeps files it can fetch again.
enum CacheDirectory {
  /// Downloaded logs: `$FETCHER_HOME/cache/logs`, else `$XDG_CACHE_HOME/fetcher/logs`, else
  /// `~/.cache/fetcher/logs`.
  static var logs: URL {
    let environment = ProcessInfo.processInfo.environment
    func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
    let base: URL
    if let home = value("FETCHER_HOME") {
      base = URL(fileURLWithPath: home).appendingPathComponent("cache")
    } else if let cache = value("XDG_CACHE_HOME") {
      base = URL(fileURLWithPath: cache).appendingPathComponent("fetcher")
    } else {
      base = URL(fileURLWithPath: value("HOME") ?? NSHomeDirectory())
        .appendingPathComponent(".cache/fetcher")
    }
    return base.appendingPathComponent("logs", isDirectory: true)
  }
}
