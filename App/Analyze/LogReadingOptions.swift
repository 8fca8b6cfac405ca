import ArgumentParser
import Foundation
import LogAnalysisLive

/// How `analyze` reads log lines and which visits it counts: the format, paths broken by
/// time, what makes a client, and the filters.
struct LogReadingOptions: ParsableArguments {
  @Option(
    name: .customLong("log-format"),
    help: ArgumentHelp(
      LogFormat.names.joined(separator: ", ")
        + " (vcombined also as vhost_combined, common_vhost or common_complete), or an Apache LogFormat string.",
      discussion:
        "Without it, a log of JSON lines (nginx's, Caddy's or Traefik's keys), with a W3C #Fields header, or of S3, an AWS load balancer (elb, alb) or Squid is known by its first line; any other is combined.",
      valueName: "format"))
  var logFormat: String?

  @Option(
    name: .customLong("json-keys"),
    help: ArgumentHelp(
      "JSON keys of the fields, as client=ip,time=ts (fields: client, request, path, method, status, time, user-agent, referer, size).",
      valueName: "field=key,..."))
  var jsonKeys: String?

  @Option(
    name: .customLong("session-gap"),
    help: ArgumentHelp(
      "A visit more than this after its client's previous one starts a new path (30m, 1h).",
      valueName: "duration"))
  var sessionGap: TimeSpan?

  @Option(
    help: ArgumentHelp(
      "What makes a client: ip, or ip+ua (address and user agent).", valueName: "ip|ip+ua"))
  var client: ClientKey = .address

  @Option(
    help: ArgumentHelp(
      "Count only these statuses: codes and classes, as 2xx,304.", valueName: "list"))
  var status: String?

  @Option(help: ArgumentHelp("Count only these methods, as GET,HEAD.", valueName: "list"))
  var method: String?

  @Option(
    help: ArgumentHelp(
      "Count only visits at or after this time (2024-05-01, 2024-05-01T10:00Z; UTC without a zone).",
      valueName: "time"))
  var since: String?

  @Option(
    help: ArgumentHelp(
      "Count only visits up to the end of this day, minute or second.", valueName: "time"))
  var until: String?

  @Option(
    name: .customLong("exclude-ip"),
    help: ArgumentHelp(
      "Leave out these addresses and CIDR ranges (IPv4 and IPv6), separated by commas; repeatable.",
      valueName: "list"))
  var excludeIP: [String] = []

  @Flag(
    name: .customLong("exclude-bots"),
    help: "Leave out crawlers, monitors and HTTP libraries, by user agent.")
  var excludeBots = false

  /// The fragments of `--bots-file`, read once, as the option is parsed.
  @Option(
    name: .customLong("bots-file"),
    help: ArgumentHelp(
      "More user-agent fragments that mark a bot, one a line (implies --exclude-bots).",
      valueName: "file"),
    transform: { path in
      do {
        return try BotPatterns.listed(inFileAt: path)
      } catch {
        throw ValidationError("\(error)")
      }
    })
  var bots: [String]?

  @Option(
    help: ArgumentHelp(
      "Count and show these panels after the sequences: pages, status, not-found, referrers, hours, bandwidth, clients, or all; separated by commas.",
      discussion:
        "Each is counted from the visits that pass the filters, and merges through --partial-out, --state and the Spark job as the sequences do.",
      valueName: "list"))
  var panels: String?

  @Option(
    help: ArgumentHelp(
      "Count how many paths reached each of these pages in order, separated by commas: '/,/products/*,/cart,/checkout' (2 to 16 steps; * matches any run of characters).",
      discussion:
        "A path (a client's visits, cut by --session-gap) reaches a step at its first visit of the step's pages after reaching the step before; other pages may come between. Shows each step's paths, those lost since the step before, and the median time from it; merges as the sequences do.",
      valueName: "steps"))
  var funnel: String?

  /// The format to read, or nil to know it by the log's first line.
  func format() throws -> LogFormat? {
    let keys = try jsonKeys.map { try JSONKeys(mapping: $0) } ?? JSONKeys()
    guard let logFormat else {
      return jsonKeys == nil ? nil : .json(keys)
    }
    return try LogFormat(logFormat, jsonKeys: keys)
  }

  /// `base` with this group's options added.
  func options(_ base: AnalysisOptions) throws -> AnalysisOptions {
    var options = base
    options.sessionGap = sessionGap.map { $0.duration.components.seconds }
    options.client = client
    options.filters = VisitFilters(
      statuses: try status.map { try VisitFilters.statuses($0) },
      methods: method.map {
        $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      },
      since: try since.map { try LogTime.bound($0, end: false) },
      until: try until.map { try LogTime.bound($0, end: true) },
      excludedAddresses: try excludeIP.flatMap { $0.split(separator: ",") }.map {
        try AddressRange($0.trimmingCharacters(in: .whitespaces))
      },
      excludeBots: excludeBots || bots != nil, botPatterns: bots ?? [])
    options.panels = try panels.map { try Panels(names: $0) } ?? []
    options.funnel = try funnel.map { try AnalysisOptions.funnelSteps($0) } ?? []
    return options
  }

  func validate() throws {
    do {
      _ = try format()
      let filters = try options(AnalysisOptions()).filters
      if let since = filters.since, let until = filters.until, since >= until {
        throw ValidationError("--since must be before --until")
      }
    } catch let error as AnalysisOptionError {
      throw ValidationError(error.description)
    }
    if let method, method.split(separator: ",").isEmpty {
      throw ValidationError("--method needs at least one method")
    }
  }
}

extension ClientKey: ExpressibleByArgument {}
