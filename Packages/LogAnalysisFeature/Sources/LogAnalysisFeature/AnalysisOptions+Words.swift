import Foundation
import LogAnalysis

extension AnalysisOptions {
  /// The options as `fetcher analyze` takes them, for a report's summary: `--length 3`,
  /// `--status 2xx,304`, `--since 2024-05-01T00:00:00Z`, …
  public var words: [String] {
    var words = ["--length", "\(length)"]
    if uniqueClients { words.append("--unique-clients") }
    if stripQuery { words.append("--strip-query") }
    if excludeStatic { words.append("--exclude-static") }
    if let sessionGap { words += ["--session-gap", "\(sessionGap)s"] }
    if client != .address { words += ["--client", client.rawValue] }
    if let statuses = filters.statuses {
      // Whole classes as 2xx, the rest as codes.
      var items: [String] = []
      var codes = Set(statuses)
      for hundred in 1...5 where Set(hundred * 100..<hundred * 100 + 100).isSubset(of: codes) {
        items.append("\(hundred)xx")
        codes.subtract(hundred * 100..<hundred * 100 + 100)
      }
      words += ["--status", (items + codes.sorted().map(String.init)).joined(separator: ",")]
    }
    if let methods = filters.methods { words += ["--method", methods.joined(separator: ",")] }
    let time = ISO8601DateFormatter()
    if let since = filters.since {
      words += ["--since", time.string(from: Date(timeIntervalSince1970: TimeInterval(since)))]
    }
    if let until = filters.until {
      words += [
        "--until (before)", time.string(from: Date(timeIntervalSince1970: TimeInterval(until))),
      ]
    }
    for range in filters.excludedAddresses {
      words += ["--exclude-ip", range.description]
    }
    if filters.excludeBots { words.append("--exclude-bots") }
    if !filters.botPatterns.isEmpty {
      words += ["--bots-file", "(" + filters.botPatterns.joined(separator: ", ") + ")"]
    }
    if !panels.isEmpty {
      words += ["--panels", panels == .all ? "all" : panels.names.joined(separator: ",")]
    }
    if !funnel.isEmpty { words += ["--funnel", funnel.joined(separator: ",")] }
    return words
  }
}
