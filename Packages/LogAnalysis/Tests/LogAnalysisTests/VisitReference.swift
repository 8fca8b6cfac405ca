import Foundation
import Synchronization

@testable import LogAnalysis

/// One request of a generated log, with every field a format may write.
struct Visit {
  var address: String
  var page: String
  var query: String?
  var method = "GET"
  var status = 200
  /// Seconds since 1970.
  var time: Int64
  /// No spaces, so that W3C writes it as it is.
  var agent = "Mozilla/5.0"
  /// The bytes sent; nil writes `-` where a format can.
  var size: Int? = 512
  /// No spaces either; nil writes `-`.
  var referer: String?
  /// The zone the time is written in, minutes east of UTC (W3C writes UTC).
  var zone = 0

  /// The page with its query, as a request line carries it.
  var target: String { query.map { "\(page)?\($0)" } ?? page }
}

/// The obvious implementation: filter, key, split into paths, count every window.
enum Reference {
  static func ranking(_ visits: [Visit], _ options: AnalysisOptions) -> [String] {
    let paths = self.paths(visits, options)
    var counts: [[String]: Int] = [:]
    var producers: [[String]: Set<String>] = [:]
    for (client, pages) in paths where pages.count >= options.length {
      for start in 0...(pages.count - options.length) {
        let window = Array(pages[start..<start + options.length])
        counts[window, default: 0] += 1
        producers[window, default: []].insert(client)
      }
    }
    let entries =
      options.uniqueClients
      ? producers.map { ($0.key, $0.value.count) } : counts.map { ($0.key, $0.value) }
    return sorted(entries)
  }

  /// The entry or exit pages of the paths, as `page:count`.
  static func ends(_ visits: [Visit], _ options: AnalysisOptions, _ end: PathEnd) -> [String] {
    var counts: [String: Int] = [:]
    for (_, pages) in paths(visits, options) {
      counts[end == .entry ? pages.first! : pages.last!, default: 0] += 1
    }
    return sorted(counts.map { ([$0.key], $0.value) })
  }

  /// Each path, in order: the client key and its pages.
  static func paths(_ visits: [Visit], _ options: AnalysisOptions) -> [(String, [String])] {
    var order: [String] = []
    var current: [String: [String]] = [:]
    var last: [String: Int64] = [:]
    var paths: [(String, [String])] = []
    for visit in visits where keeps(visit, options) {
      let client =
        options.client == .address ? visit.address : "\(visit.address) \(visit.agent)"
      var page = visit.target
      if options.stripQuery { page = visit.page }
      if let gap = options.sessionGap, let previous = last[client], visit.time - previous > gap {
        paths.append((client, current[client]!))
        current[client] = []
      }
      if current[client] == nil { order.append(client) }
      current[client, default: []].append(page)
      last[client] = visit.time
    }
    for client in order { paths.append((client, current[client]!)) }
    return paths
  }

  static func keeps(_ visit: Visit, _ options: AnalysisOptions) -> Bool {
    let filters = options.filters
    if options.excludeStatic, [".png", ".css", ".js"].contains(where: visit.page.hasSuffix) {
      return false
    }
    if let statuses = filters.statuses, !statuses.contains(visit.status) { return false }
    if let methods = filters.methods, !methods.contains(visit.method) { return false }
    if let since = filters.since, visit.time < since { return false }
    if let until = filters.until, visit.time >= until { return false }
    if filters.excludedAddresses.contains(where: { range in
      AddressRange.address(visit.address).map(range.contains) ?? false
    }) {
      return false
    }
    if filters.excludeBots {
      let agent = visit.agent.lowercased()
      if (BotPatterns.builtIn + filters.botPatterns).contains(where: agent.contains) {
        return false
      }
    }
    return true
  }

  private static func sorted(_ entries: [([String], Int)]) -> [String] {
    entries.sorted { a, b in
      if a.1 != b.1 { return a.1 > b.1 }
      for (x, y) in zip(a.0, b.0) where x != y {
        return Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8))
      }
      return false
    }.map { "\($0.0.joined(separator: "-")):\($0.1)" }
  }
}

/// A format the tests write visits in.
struct WrittenFormat: Sendable {
  var name: String
  /// Nil: known by the first line.
  var format: LogFormat?
  var write: @Sendable ([Visit]) -> String
  /// Whether a time is written in its visit's zone (otherwise in UTC).
  var zoned = true
  /// What of the visits the format keeps, and which options it can answer.
  var adapt: @Sendable (inout [Visit], inout AnalysisOptions) -> Void = { _, _ in }

  init(
    _ name: String, _ format: LogFormat? = nil, write: @escaping @Sendable ([Visit]) -> String,
    zoned: Bool = true,
    adapt: @escaping @Sendable (inout [Visit], inout AnalysisOptions) -> Void = { _, _ in }
  ) {
    (self.name, self.format, self.write, self.zoned, self.adapt) = (
      name, format, write, zoned, adapt
    )
  }

  /// AWS's load balancers log no referer.
  static func withoutReferers(_ visits: inout [Visit], _ options: inout AnalysisOptions) {
    for index in visits.indices { visits[index].referer = nil }
  }

  /// A proxy's log (Squid's): no referer, no user agent, and absolute URLs, which are kept.
  static func asProxied(_ visits: inout [Visit], _ options: inout AnalysisOptions) {
    withoutReferers(&visits, &options)
    for index in visits.indices { visits[index].page = "http://example.com" + visits[index].page }
    options.client = .address
    options.filters.excludeBots = false
  }
}

/// The same visits written in each format that `LogFormat` reads.
enum LogWriter {
  static func combined(_ visits: [Visit]) -> String {
    visits.map { visit in
      #"\#(visit.address) - - [\#(apacheTime(visit.time, zone: visit.zone))] "\#(visit.method) \#(visit.target) HTTP/1.1" \#(visit.status) \#(visit.size.map(String.init) ?? "-") "\#(visit.referer ?? "-")" "\#(visit.agent)""#
    }.joined(separator: "\n") + "\n"
  }

  static func vcombined(_ visits: [Visit]) -> String {
    combined(visits).split(separator: "\n").map { "www.example.com:443 \($0)" }
      .joined(separator: "\n") + "\n"
  }

  /// A LogFormat string of our own: the address, and the path and query apart.
  static let customFormat = #"%a %t "%m %U%q %H" %>s %b "%{Referer}i" "%{User-Agent}i""#

  static func custom(_ visits: [Visit]) -> String {
    visits.map { visit in
      let query = visit.query.map { "?\($0)" } ?? ""
      return
        #"\#(visit.address) [\#(apacheTime(visit.time, zone: visit.zone))] "\#(visit.method) \#(visit.page)\#(query) HTTP/1.1" \#(visit.status) \#(visit.size.map(String.init) ?? "-") "\#(visit.referer ?? "-")" "\#(visit.agent)""#
    }.joined(separator: "\n") + "\n"
  }

  static func w3c(_ visits: [Visit]) -> String {
    var text = """
      #Software: Microsoft Internet Information Services 10.0
      #Version: 1.0
      #Date: 2024-01-01 00:00:00
      #Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-bytes

      """
    for visit in visits {
      let stamp = isoTime(visit.time).split(separator: "T")
      text +=
        "\(stamp[0]) \(stamp[1].dropLast()) 10.0.0.254 \(visit.method) \(visit.page) "
        + "\(visit.query ?? "-") 443 - \(visit.address) \(visit.agent) \(visit.referer ?? "-") "
        + "\(visit.status) 0 \(visit.size.map(String.init) ?? "-")\n"
    }
    return text
  }

  static func json(_ visits: [Visit]) -> String {
    visits.map { visit in
      let request = "\(visit.method) \(visit.target) HTTP/1.1"
        .replacingOccurrences(of: "/", with: "\\/")
      return
        #"{"time_iso8601":"\#(isoTime(visit.time, zone: visit.zone))","remote_addr":"\#(visit.address)","request":"\#(request)","status":\#(visit.status),"body_bytes_sent":\#(visit.size ?? 0),"nested":{"a":[1,"}"]},"http_user_agent":"\#(visit.agent)"\#(visit.referer.map { #","http_referer":"\#($0.replacingOccurrences(of: "/", with: "\\/"))""# } ?? "")}"#
    }.joined(separator: "\n") + "\n"
  }

  /// Caddy's access log: the request an object, headers as arrays, `ts` in seconds with a
  /// fraction, `client_ip` (or before Caddy 2.7, `remote_ip` alone).
  static func caddy(_ visits: [Visit]) -> String {
    visits.enumerated().map { index, visit in
      let client =
        index % 3 == 0
        ? #""remote_ip":"\#(visit.address)","remote_port":"5\#(index)""#
        : #""remote_ip":"10.9.9.9","remote_port":"443","client_ip":"\#(visit.address)""#
      let referer = visit.referer.map { #","Referer":["\#(json($0))"]"# } ?? ""
      return
        #"{"level":"info","ts":\#(visit.time).25,"logger":"http.log.access.log0","msg":"handled request","request":{\#(client),"proto":"HTTP/2.0","method":"\#(visit.method)","host":"example.com","uri":"\#(json(visit.target))","headers":{"Accept":["*/*"],"User-Agent":["\#(visit.agent)"]\#(referer)},"tls":{"resumed":false,"proto":"h2"}},"bytes_read":0,"user_id":"","duration":0.0009,"size":\#(visit.size ?? 0),"status":\#(visit.status),"resp_headers":{"Server":["Caddy"]}}"#
    }.joined(separator: "\n") + "\n"
  }

  /// Traefik's JSON access log, with the headers it keeps when configured to.
  static func traefikJSON(_ visits: [Visit]) -> String {
    visits.map { visit in
      let referer = visit.referer.map { #","request_Referer":"\#(json($0))""# } ?? ""
      return
        #"{"ClientAddr":"\#(visit.address):52134","ClientHost":"\#(visit.address)","ClientPort":"52134","DownstreamContentSize":\#(visit.size ?? 0),"DownstreamStatus":\#(visit.status),"Duration":1234567,"RequestMethod":"\#(visit.method)","RequestPath":"\#(json(visit.target))","RequestProtocol":"HTTP/1.1","RouterName":"web@docker","StartLocal":"\#(isoTime(visit.time, zone: 120))","StartUTC":"\#(isoTime(visit.time))","level":"info","msg":"","request_User-Agent":"\#(visit.agent)"\#(referer)}"#
    }.joined(separator: "\n") + "\n"
  }

  /// Amazon S3's server access log, with the fields AWS added after the agent.
  static func s3(_ visits: [Visit]) -> String {
    visits.enumerated().map { index, visit in
      let owner = String(repeating: "7e", count: 32)
      let key = visit.page == "/" ? "-" : String(visit.page.dropFirst())
      return
        #"\#(owner) site-bucket [\#(apacheTime(visit.time, zone: visit.zone))] \#(visit.address) - 3E57427F3EXAMP\#(index) REST.GET.OBJECT \#(key) "\#(visit.method) \#(visit.target) HTTP/1.1" \#(visit.status) - \#(visit.size.map(String.init) ?? "-") 4096 7 6 "\#(visit.referer ?? "-")" "\#(visit.agent)" - c2lnbmF0dXJl= SigV4 ECDHE-RSA-AES128-GCM-SHA256 AuthHeader site-bucket.s3.us-west-1.amazonaws.com TLSv1.2 - -"#
    }.joined(separator: "\n") + "\n"
  }

  /// Classic ELB's log: absolute URLs (one without a path for `/`), clients as `address:port`.
  static func elb(_ visits: [Visit]) -> String {
    visits.enumerated().map { index, visit in
      #"\#(awsTime(visit.time, index)) my-loadbalancer \#(visit.address):\#(2000 + index) 10.0.0.1:80 0.000073 0.001048 0.000057 \#(visit.status) \#(visit.status) 0 \#(visit.size ?? 0) "\#(visit.method) \#(absolute(visit, index)) HTTP/1.1" "\#(visit.agent)" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2"#
    }.joined(separator: "\n") + "\n"
  }

  /// An Application Load Balancer's log, with the fields AWS writes after the agent.
  static func alb(_ visits: [Visit]) -> String {
    visits.enumerated().map { index, visit in
      let type = ["http", "https", "h2", "wss"][index % 4]
      return
        #"\#(type) \#(awsTime(visit.time, index)) app/my-loadbalancer/50dc6c495c0c9188 \#(visit.address):\#(2000 + index) 10.0.0.1:80 0.000 0.001 0.000 \#(visit.status) \#(visit.status) 34 \#(visit.size ?? 0) "\#(visit.method) \#(absolute(visit, index)) HTTP/2.0" "\#(visit.agent)" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337262-36d228ad5d99923122bbe354" "www.example.com" "-" 0 \#(awsTime(visit.time, index)) "forward" "-" "-" "10.0.0.1:80" "\#(visit.status)" "-" "-" TID_\#(index)"#
    }.joined(separator: "\n") + "\n"
  }

  /// Squid's native log: the duration padded to six columns, absolute URLs as they are.
  static func squid(_ visits: [Visit]) -> String {
    visits.enumerated().map { index, visit in
      let result = ["TCP_MISS", "TCP_HIT", "TCP_REFRESH_MODIFIED"][index % 3]
      let elapsed =
        String(repeating: " ", count: 5 - String(index * 37 % 10_000).count)
        + String(index * 37 % 10_000)
      return
        "\(visit.time).\(100 + index % 900) \(elapsed) \(visit.address) \(result)/\(visit.status) "
        + "\(visit.size ?? 0) \(visit.method) \(visit.target) - HIER_DIRECT/93.184.216.34 text/html"
    }.joined(separator: "\n") + "\n"
  }

  /// `2024-01-01T10:00:00.000123Z`, as AWS writes times: UTC, microseconds.
  private static func awsTime(_ seconds: Int64, _ index: Int) -> String {
    isoTime(seconds).dropLast() + ".\(String(100_000 + index % 900_000).dropFirst())Z"
  }

  /// The visit's target as an absolute URL, as AWS's balancers log it; `/` alone as none.
  private static func absolute(_ visit: Visit, _ index: Int) -> String {
    let site = index % 2 == 0 ? "https://www.example.com:443" : "http://10.0.2.105:80"
    guard visit.page == "/" && index % 3 == 0 else { return site + visit.target }
    return site + (visit.query.map { "?\($0)" } ?? "")
  }

  /// `text` as the inside of a JSON string, slashes escaped as encoders often do.
  private static func json(_ text: String) -> String {
    text.replacingOccurrences(of: "/", with: "\\/")
  }

  /// `10/Oct/2000:13:55:36 -0700`, in the zone `zone` minutes east of UTC.
  static func apacheTime(_ seconds: Int64, zone: Int = 0) -> String {
    apacheFormatters.withLock { formatters in
      let formatter = formatters[zone] ?? DateFormatter()
      if formatters[zone] == nil {
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: zone * 60)
        formatter.dateFormat = "dd/MMM/yyyy:HH:mm:ss xx"
        formatters[zone] = formatter
      }
      return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
  }

  /// `2000-10-10T13:55:36Z`, or with an offset in the zone `zone` minutes east of UTC.
  static func isoTime(_ seconds: Int64, zone: Int = 0) -> String {
    isoFormatters.withLock { formatters in
      let formatter = formatters[zone] ?? ISO8601DateFormatter()
      if formatters[zone] == nil {
        formatter.timeZone = TimeZone(secondsFromGMT: zone * 60)
        formatters[zone] = formatter
      }
      return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
  }

  /// The formatters of each zone, made once: making one costs far more than a line's
  /// formatting (most of the time of the tests that write large logs).
  private static let apacheFormatters = Mutex<[Int: DateFormatter]>([:])
  private static let isoFormatters = Mutex<[Int: ISO8601DateFormatter]>([:])
}
