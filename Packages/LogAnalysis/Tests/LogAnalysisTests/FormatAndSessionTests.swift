import Foundation
import LogAnalysisTestSupport
import Testing

@testable import LogAnalysis

/// Random visits of a few clients over a few hours, in time order, with gaps long enough to
/// break paths, bots, statuses, methods, queries and static files among them.
func randomVisits(seed: UInt64, count: Int) -> [Visit] {
  var generator = SplitMix(seed: seed)
  var time: Int64 = 1_704_103_200  // 2024-01-01T10:00:00Z
  let agents = ["Mozilla/5.0", "Mozilla/5.0(iPhone)", "Googlebot/2.1", "curl/8.5.0"]
  let addresses = ["10.0.0.1", "10.0.0.2", "192.168.1.7", "2001:db8::1", "2001:db8::2"]
  let pages = ["/", "/a", "/b", "/c", "/logo.png", "/site.css"]
  return (0..<count).map { _ in
    time += Int64(generator.next() % 100 == 0 ? 4000 : generator.next() % 400)
    return Visit(
      address: addresses[Int(generator.next() % UInt64(addresses.count))],
      page: pages[Int(min(generator.next() % 6, generator.next() % 6))],
      query: generator.next() % 5 == 0 ? "q=\(generator.next() % 3)" : nil,
      method: generator.next() % 6 == 0 ? "POST" : "GET",
      status: [200, 200, 200, 304, 404, 500][Int(generator.next() % 6)],
      time: time,
      agent: agents[Int(generator.next() % UInt64(agents.count))])
  }
}

/// Options drawn from every kind the analysis has.
func randomOptions(_ generator: inout SplitMix) -> AnalysisOptions {
  var filters = VisitFilters()
  if generator.next() % 2 == 0 { filters.statuses = Array(200..<300) + [304] }
  if generator.next() % 3 == 0 { filters.methods = ["GET"] }
  if generator.next() % 3 == 0 { filters.since = 1_704_103_200 + 3600 }
  if generator.next() % 3 == 0 { filters.until = 1_704_103_200 + 20_000 }
  if generator.next() % 3 == 0 {
    filters.excludedAddresses = [
      try! AddressRange("10.0.0.0/31"), try! AddressRange("2001:db8::2"),
    ]
  }
  filters.excludeBots = generator.next() % 2 == 0
  if generator.next() % 4 == 0 { filters.botPatterns = ["iphone"] }
  return AnalysisOptions(
    length: 1 + Int(generator.next() % 4), uniqueClients: generator.next() % 3 == 0,
    stripQuery: generator.next() % 3 == 0, excludeStatic: generator.next() % 2 == 0,
    sessionGap: generator.next() % 3 == 0 ? nil : 1800,
    client: generator.next() % 2 == 0 ? .address : .addressAndUserAgent, filters: filters)
}

@Suite struct FormatTests {
  /// Lines that are no access-log line in any format: random bytes, other logs, and access-log
  /// lines with a field broken. Each is one malformed line.
  static let garbage = [
    "garbage line", "\u{1}\u{2} binary", #"{"broken": "#, "x y z", #"junk "hello world" more"#,
    #"2024/05/01 12:00:00 [error] 7#0: *1 open() "/x" failed, client: 1.2.3.4, server: h, request: "GET /x HTTP/1.1", host: "h""#,
    #"May  1 12:00:00 host app[123]: GET /health 200 "checker" "x y""#,
    #"1.2.3.4 - - [01/Foo/2024:00:00:00 +0000] "GET /a HTTP/1.1" 200 1 "-" "ua""#,
    #"1.2.3.4 - - [01/May/2024:00:00:00 +0000] "GET /a HTTP/1.1" - 1 "-" "ua""#,
    #"1.2.3.4 - - "GET /a HTTP/1.1" 200 1 "-" "ua""#,
    #"1.2.3.4 - - [01/May/2024:00:00:00 +0000] "GET /a HTTP/1.1" 200"#,
  ]
  /// Lines that are no lines: blank (nothing, or spaces and tabs), and a comment.
  static let passedOver = ["", "\r", " \t ", "# rotated 2024-05-01"]

  /// The same visits in every format, with garbage lines among them.
  static let formats: [WrittenFormat] = [
    WrittenFormat("combined", write: LogWriter.combined),
    WrittenFormat("vcombined", .vcombined, write: LogWriter.vcombined),
    WrittenFormat("custom", .apache(LogWriter.customFormat), write: LogWriter.custom),
    WrittenFormat("w3c", write: LogWriter.w3c, zoned: false),
    WrittenFormat("json", write: LogWriter.json),
    WrittenFormat("caddy", write: LogWriter.caddy, zoned: false),
    WrittenFormat("traefik-json", write: LogWriter.traefikJSON, zoned: false),
    WrittenFormat("s3", write: LogWriter.s3),
    WrittenFormat("elb", write: LogWriter.elb, zoned: false, adapt: WrittenFormat.withoutReferers),
    WrittenFormat("alb", write: LogWriter.alb, zoned: false, adapt: WrittenFormat.withoutReferers),
    WrittenFormat("squid", write: LogWriter.squid, zoned: false, adapt: WrittenFormat.asProxied),
  ]

  @Test(arguments: 0..<12)
  func everyFormatRanksAsTheReference(seed: Int) {
    var generator = SplitMix(seed: UInt64(seed) &+ 7)
    let visits = randomVisits(seed: UInt64(seed), count: 50 + Int(generator.next() % 400))
    let drawn = randomOptions(&generator)
    for written in Self.formats {
      let name = written.name
      var (visits, options) = (visits, drawn)
      written.adapt(&visits, &options)
      let expected = Reference.ranking(visits, options)
      // Garbage among the lines, after the fifth, so that the first still shows the format.
      var lines = written.write(visits).split(separator: "\n", omittingEmptySubsequences: false)
        .map(String.init)
      let entries = lines.count { !$0.isEmpty && !$0.hasPrefix("#") }
      var (inserted, comments) = (0, 0)
      for _ in 0..<Int(generator.next() % 8) {
        let at = 5 + Int(generator.next() % UInt64(lines.count - 5))
        if generator.next() % 3 == 0 {
          let line = Self.passedOver[Int(generator.next() % UInt64(Self.passedOver.count))]
          lines.insert(line, at: at)
          if line.hasPrefix("#") { comments += 1 }
        } else {
          lines.insert(Self.garbage[Int(generator.next() % UInt64(Self.garbage.count))], at: at)
          inserted += 1
        }
      }
      let text = lines.joined(separator: "\n")
      for chunks in [1, 3, 8] {
        let partial = analyze(text, options: options, format: written.format, chunks: chunks)
        #expect(ranked(partial) == expected, "\(name), \(chunks) chunks, \(options)")
        #expect(partial.malformedLines == inserted, "\(name), \(options)")
        #expect(partial.lines == entries + inserted, "\(name)")
        #expect(partial.commentLines == (name == "w3c" ? 0 : comments), "\(name)")
      }
    }
  }

  @Test func theFormatIsKnownByTheFirstLine() {
    let visits = randomVisits(seed: 1, count: 30)
    for (text, expected) in [
      (LogWriter.json(visits), LogFormat.json(JSONKeys())), (LogWriter.w3c(visits), .w3c),
      (LogWriter.combined(visits), .combined), ("\n\n  {\"a\":1}", .json(JSONKeys())),
    ] {
      #expect(Array(text.utf8).withUnsafeBytes { LogFormat.detect($0) } == expected)
    }
  }

  /// Combined, common and vcombined are told apart by what most of the first lines read as;
  /// a vhost log is never read as combined, which would take the vhost for the client.
  @Test func apacheFlavoursAreKnownByTheirLines() {
    let visits = randomVisits(seed: 2, count: 30)
    let common = LogWriter.combined(visits).split(separator: "\n").map {
      $0.components(separatedBy: #" "-" ""#)[0]
    }.joined(separator: "\n")
    for (text, expected) in [
      (LogWriter.vcombined(visits), LogFormat.vcombined), (common, .common),
      ("garbage\n" + LogWriter.combined(visits), .combined),
    ] {
      #expect(Array(text.utf8).withUnsafeBytes { LogFormat.detect($0) } == expected)
    }
    let partial = analyze(LogWriter.vcombined(visits))
    #expect(partial.formatName == "vcombined")
    #expect(partial.malformedLines == 0)
    #expect(ranked(partial) == Reference.ranking(visits, AnalysisOptions()))
  }

  /// The issue's case, written after Matomo's common_vhost and common_complete (`%v %h %l %u
  /// %t "%r" %>s %b`, and with the referer and agent): a virtual host without its port is
  /// found, and `--log-format vcombined` reads both shapes, with the client second.
  @Test func aVhostWithoutItsPortIsRead() throws {
    let text = """
      www.example.com 1.2.3.4 - - [10/Oct/2023:13:55:36 +0000] "GET /a HTTP/1.1" 200 612
      www.example.com 1.2.3.4 - - [10/Oct/2023:13:55:37 +0000] "GET /b HTTP/1.1" 200 612 "-" "curl/8"
      shop.example.com:443 5.6.7.8 - - [10/Oct/2023:13:55:38 +0000] "GET /c HTTP/1.1" 200 1 "-" "x"

      """
    #expect(Array(text.utf8).withUnsafeBytes { LogFormat.detect($0) } == .vcombined)
    #expect(try LogFormat("common_vhost") == .vcombined)
    for format in [nil, LogFormat.vcombined] {
      let partial = analyze(text, options: AnalysisOptions(length: 2), format: format)
      #expect(partial.malformedLines == 0)
      #expect(partial.clientCount == 2)
      #expect(ranked(partial) == ["/a-/b:1"])
    }
  }

  /// Whether a line is malformed never depends on the options: the fast path (no option
  /// needs a field) and the full reading (a session gap does) count the same lines.
  @Test func theMalformedCountDoesNotDependOnTheOptions() {
    let visits = randomVisits(seed: 3, count: 200)
    var lines = LogWriter.combined(visits).split(separator: "\n").map(String.init)
    for (offset, junk) in Self.garbage.enumerated() { lines.insert(junk, at: 10 + 7 * offset) }
    let text = lines.joined(separator: "\n")
    let fast = analyze(text)
    let full = analyze(text, options: AnalysisOptions(sessionGap: 1 << 40))
    #expect(fast.malformedLines == Self.garbage.count)
    #expect(full.malformedLines == fast.malformedLines && full.lines == fast.lines)
    #expect(ranked(full) == ranked(fast))
  }

  /// A fuzzer's find: a quote in the client made the line malformed on the fast path only.
  @Test func aQuoteInTheFirstFieldsIsMalformedOnBothPaths() throws {
    let text = [
      #"P/1.1","status"10.0.0.1 - x [01/Jul/1995:00:00:04 -0400] "GET /a HTTP/1.0" 304 0"#,
      #"10.0.0.1 - "x [01/Jul/1995:00:00:04 -0400] "GET /b HTTP/1.0" 304 0"#,
    ].joined(separator: "\n")
    let fast = analyze(text)
    let full = analyze(text, options: AnalysisOptions(sessionGap: 1 << 40))
    #expect(fast.malformedLines == 2 && full.malformedLines == 2)
  }

  /// A fuzzer's find: a time without its `[`, which Apache's `%t` never writes, was read on
  /// the full path only (the rest of the line read as a time there).
  @Test func aTimeWithoutItsBracketIsMalformedOnBothPaths() throws {
    let text = #"10.0.0.1 - - 01/Jul/1995:00:00:040-0400] "GET /a HTTP/1.0" 304 0"#
    let fast = analyze(text)
    let full = analyze(text, options: AnalysisOptions(sessionGap: 1 << 40))
    #expect(fast.malformedLines == 1 && full.malformedLines == 1)
  }

  /// A client of `-` in an Apache format is a client, on both paths (GoAccess, which takes any
  /// host with `--no-ip-validation`, counts it too); in W3C and JSON, where `-` is a field
  /// without a value, it is none, and JSON's alternative client (the host) stands in.
  @Test func aClientOfDashIsAClientInApacheFormatsOnly() {
    let combined = [
      #"1.2.3.4 - - [10/Oct/2024:13:55:36 +0000] "GET /a HTTP/1.1" 200 10 "-" "curl""#,
      #"- - - [10/Oct/2024:13:55:37 +0000] "GET /b HTTP/1.1" 200 10 "-" "curl""#,
      #"- - - [10/Oct/2024:13:55:38 +0000] "GET /c HTTP/1.1" 200 10 "-" "curl""#,
    ].joined(separator: "\n")
    for options in [AnalysisOptions(length: 2), AnalysisOptions(length: 2, sessionGap: 1 << 40)] {
      let partial = analyze(combined, options: options)
      #expect(partial.malformedLines == 0 && partial.clientCount == 2)
      #expect(ranked(partial) == ["/b-/c:1"])
    }
    let json = [
      #"{"remote_addr":"-","request":"GET /1 HTTP/1.1"}"#,
      #"{"remote_addr":"-","host":"h","request":"GET /2 HTTP/1.1"}"#,
    ].joined(separator: "\n")
    var keys = JSONKeys()
    keys.alternativeClient = "host"
    let read = analyze(json, format: .json(keys))
    #expect(read.malformedLines == 1 && read.clientCount == 1)
    let w3c = """
      #Fields: date time c-ip cs-uri-stem
      2024-05-01 10:00:00 - /a
      """
    #expect(analyze(w3c).malformedLines == 1)
  }

  /// A fuzzer's find: fields after the agent whose last quote is escaped made the line
  /// malformed on the fast path only (it took that quote for the agent's end).
  @Test func fieldsAfterTheAgentEndingInAnEscapedQuoteReadOnBothPaths() throws {
    let text = [
      #"10.0.0.1 - - [01/Jul/1995:00:00:02 -0400] "GET /b HTTP/1.0" 200 100 "-" "curl/0" "y\"z"#,
      #"10.0.0.1 - - [01/Jul/1995:00:00:02 -0400] "GET /c HTTP/1.0" 200 100 "-" "a\"b" 20 [x] "q\"uote 1"#,
      #"10.0.0.1 - - [01/Jul/1995:00:00:02 -0400] "GET /d HTTP/1.0" 200 100 "-" "never closed\""#,
    ].joined(separator: "\n")
    let fast = analyze(text)
    let full = analyze(text, options: AnalysisOptions(sessionGap: 1 << 40))
    #expect(fast.malformedLines == 1 && full.malformedLines == 1)
    #expect(fast.lines == 3 && full.lines == 3)
  }

  /// JSON and W3C lines need a time that reads and a status of three digits when they have them
  /// (`-` for the status is none: malformed, as the docs say).
  @Test func jsonAndW3CFieldsAreChecked() {
    let json = [
      #"{"remote_addr":"a","request":"GET /1 HTTP/1.1","status":200,"time_local":"10/Oct/2000:13:55:36 -0700"}"#,
      #"{"remote_addr":"a","request":"GET /2 HTTP/1.1","status":"20x"}"#,
      #"{"remote_addr":"a","request":"GET /3 HTTP/1.1","time_local":"yesterday"}"#,
      #"{"remote_addr":"a","request":"GET /4 HTTP/1.1","status":2000}"#,
    ].joined(separator: "\n")
    #expect(analyze(json).malformedLines == 3)
    let w3c = """
      #Fields: date time c-ip cs-uri-stem sc-status
      2024-05-01 10:00:00 1.2.3.4 /a 200
      2024-05-01 10:00:01 1.2.3.4 /b 2000
      yesterday 10:00:02 1.2.3.4 /c 200
      2024-05-01 10:00:03 1.2.3.4 /d -
      """
    let partial = analyze(w3c)
    #expect(partial.lines == 4 && partial.malformedLines == 3)
  }

  @Test func namesAndLogFormatStrings() throws {
    #expect(try LogFormat("COMBINED") == .combined)
    #expect(try LogFormat("common") == .common)
    #expect(try LogFormat("vcombined") == .vcombined)
    #expect(try LogFormat("w3c") == .w3c)
    #expect(try LogFormat(#"%h "%r""#) == .apache(#"%h "%r""#))
    #expect(throws: AnalysisOptionError.self) { try LogFormat("apache") }
    #expect(throws: AnalysisOptionError.self) { try LogFormat("%h %r%s") }
    #expect(throws: AnalysisOptionError.self) { try LogFormat("%t %r") }  // no client
    #expect(throws: AnalysisOptionError.self) { try LogFormat("%h %{Referer") }
    #expect(try LogFormat("caddy") == .json(.caddy) && LogFormat.json(.caddy).name == "caddy")
    #expect(try LogFormat("traefik-json").name == "traefik-json")
    #expect(try LogFormat("Traefik") == .combined)
    #expect(try LogFormat("s3") == .s3 && LogFormat.s3.name == "s3")
    for name in ["elb", "alb", "squid"] { #expect(try LogFormat(name).name == name) }
    #expect(LogFormat.names.allSatisfy { (try? LogFormat($0)) != nil })
  }

  /// The examples of AWS's documentation of its load balancers' logs and of Squid's: the
  /// client's port is not part of it (an IPv6 address keeps its colons), an absolute URL is
  /// read as its path and query, a TCP listener's `- - -` request is no visit, Squid's padded
  /// durations read, its URLs are kept whole, and each is known by its first line.
  @Test func awsAndSquidLogsReadAsTheirDocumentationWritesThem() throws {
    let elb = """
      2015-05-13T23:39:43.945958Z my-loadbalancer 192.168.131.39:2817 10.0.0.1:80 0.000073 0.001048 0.000057 200 200 0 29 "GET http://www.example.com:80/ HTTP/1.1" "curl/7.38.0" - -
      2015-05-13T23:39:43.945958Z my-loadbalancer 192.168.131.39:2817 10.0.0.1:80 0.000086 0.001048 0.001337 200 200 0 57 "GET https://www.example.com:443/ HTTP/1.1" "curl/7.38.0" DHE-RSA-AES128-SHA TLSv1.2
      2015-05-13T23:39:43.945958Z my-loadbalancer 192.168.131.39:2817 10.0.0.1:80 0.001069 0.000028 0.000041 - - 82 305 "- - - " "-" - -
      2015-05-13T23:39:44.000001Z my-loadbalancer 2001:db8::7:2817 10.0.0.1:80 0.000086 0.001048 0.001337 404 404 0 57 "GET https://www.example.com:443?x=1 HTTP/1.1" "curl/7.38.0" - -
      2015-05-13T23:39:45.000001Z my-loadbalancer 2001:db8::7:2817 10.0.0.1:80 0.000086 0.001048 0.001337 200 200 0 57 "GET /relative HTTP/1.1" "curl/7.38.0" - -

      """
    let alb = """
      http 2018-07-02T22:23:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 192.168.131.39:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 "GET http://www.example.com:80/ HTTP/1.1" "curl/7.46.0" - - arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337262-36d228ad5d99923122bbe354" "-" "-" 0 2018-07-02T22:22:48.364000Z "forward" "-" "-" "10.0.0.1:80" "200" "-" "-" TID_1234abcd5678ef90
      h2 2018-07-02T22:23:01.186641Z app/my-loadbalancer/50dc6c495c0c9188 192.168.131.39:2817 10.0.0.66:9000 0.000 0.002 0.000 200 200 5 257 "GET https://10.0.2.105:773/cart?item=2 HTTP/2.0" "curl/7.46.0" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337327-72bd00b0343d75b906739c42" "-" "-" 1 2018-07-02T22:22:48.364000Z "redirect" "https://example.com:80/" "-" "10.0.0.66:9000" "200" "-" "-" TID_1234abcd5678ef90

      """
    let squid = """
      1286536308.779    180 192.168.0.224 TCP_MISS/200 411 GET http://www.google.com/ - DIRECT/72.14.213.99 text/html
      1286536309.144  10021 192.168.0.224 TCP_TUNNEL/200 8450 CONNECT mail.google.com:443 - HIER_DIRECT/142.250.1.1 -
      1286536310.020 123456 192.168.0.224 TCP_DENIED/403 3964 GET http://blocked.example/ - HIER_NONE/- text/html

      """
    var options = AnalysisOptions(length: 2)
    options.panels = [.pages, .status, .bandwidth]
    let expected: [(String, String, [String], Int, Int, Int)] = [
      (elb, "elb", ["/-/:1", "/?x=1-/relative:1"], 2, 200, 1),
      (alb, "alb", ["/-/cart?item=2:1"], 1, 623, 0),
      (
        squid, "squid",
        [
          "http://www.google.com/-mail.google.com:443:1",
          "mail.google.com:443-http://blocked.example/:1",
        ], 1, 12825, 0
      ),
    ]
    for (text, name, sequences, clients, bytes, malformed) in expected {
      #expect(Array(text.utf8).withUnsafeBytes { LogFormat.detect($0) }.name == name)
      let partial = analyze(text, options: options)
      #expect(partial.formatName == name)
      #expect(partial.malformedLines == malformed, "\(name)")
      #expect(ranked(partial) == sequences, "\(name)")
      #expect(partial.clientCount == clients, "\(name)")
      #expect(partial.panels(top: 0).bytes == bytes, "\(name)")
    }
    let statuses = analyze(squid, options: options).panels(top: 0).statuses
    #expect(statuses.map { "\($0.name):\($0.count)" } == ["200:2", "403:1"])
    #expect(
      analyze(squid, options: AnalysisOptions(sessionGap: 60)).timeRange
        == 1_286_536_308...1_286_536_310)
    let since = try LogTime.bound("2015-05-13T23:39:44Z", end: false)
    let late = analyze(elb, options: AnalysisOptions(filters: VisitFilters(since: since)))
    #expect(late.timeRange == 1_431_560_384...1_431_560_385)
    #expect(late.filteredLines == 2)
  }

  /// Traefik's CLF: combined, then the requests so far, the router, the server and the
  /// duration, as its documentation lists them; its JSON and Caddy's are known by their keys.
  @Test func traefikAndCaddyLogsReadByTheirNamesOrTheirFirstLines() throws {
    let clf = """
      192.0.2.10 - - [01/May/2024:10:00:00 +0000] "GET /api/items?page=2 HTTP/1.1" 200 1024 "https://example.com/" "curl/8.4.0" 41 "api@docker" "http://172.17.0.3:8080" 3ms
      192.0.2.10 - alice [01/May/2024:10:00:01 +0000] "POST /api/cart HTTP/2.0" 201 18 "-" "curl/8.4.0" 42 "api@docker" "http://172.17.0.3:8080" 12ms

      """
    var options = AnalysisOptions(length: 2)
    options.panels = [.referrers, .bandwidth]
    let partial = analyze(clf, options: options, format: try LogFormat("traefik"))
    #expect(partial.lines == 2 && partial.malformedLines == 0)
    #expect(ranked(partial) == ["/api/items?page=2-/api/cart:1"])
    #expect(partial.panels(top: 0).referrers.map(\.name) == ["https://example.com/"])
    #expect(partial.panels(top: 0).bytes == 1042)
    let caddy = LogWriter.caddy(randomVisits(seed: 4, count: 3))
    let traefik = LogWriter.traefikJSON(randomVisits(seed: 4, count: 3))
    for (text, name) in [(caddy, "caddy"), (traefik, "traefik-json")] {
      #expect(Array(text.utf8).withUnsafeBytes { LogFormat.detect($0) }.name == name)
      #expect(analyze(text).formatName == name)
      #expect(analyze(text).malformedLines == 0)
    }
  }

  @Test func aVhostIsNotTheClient() {
    let visits = randomVisits(seed: 2, count: 100)
    let partial = analyze(LogWriter.vcombined(visits), format: .vcombined)
    #expect(partial.clientCount == Set(visits.map(\.address)).count)
    #expect(ranked(partial) == Reference.ranking(visits, AnalysisOptions()))
  }

  @Test func commonLinesReadAsCombinedWhenTheOptionsNeedMore() {
    let lines = (1...3).map {
      #"a - - [10/Oct/2000:13:55:3\#($0) -0700] "GET /\#($0) HTTP/1.0" 200 1"#
    }
    for options in [AnalysisOptions(sessionGap: 60), AnalysisOptions(sessionGap: 0)] {
      let partial = analyze(lines.joined(separator: "\n"), options: options)
      #expect(partial.malformedLines == 0)
      #expect(ranked(partial) == (options.sessionGap == 60 ? ["/1-/2-/3:1"] : []))
    }
  }

  @Test func anEscapedQuoteIsPartOfTheRequest() {
    let lines = [
      #"a - - [10/Oct/2000:13:55:36 -0700] "GET /x\"y HTTP/1.1" 200 1 "-" "ua""#,
      #"a - - [10/Oct/2000:13:55:36 -0700] "GET /\\ HTTP/1.1" 200 1 "-" "ua""#,
      #"a - - [10/Oct/2000:13:55:36 -0700] "GET /z\" HTTP/1.1" 200 1 "-" "ua \"quoted\"""#,
    ].joined(separator: "\n")
    for options in [AnalysisOptions(), AnalysisOptions(filters: VisitFilters(excludeBots: true))] {
      let partial = analyze(lines, options: options)
      #expect(partial.malformedLines == 0)
      #expect(ranked(partial) == [#"/x\"y-/\\-/z\":1"#])
    }
  }

  @Test func jsonEscapesAreDecoded() {
    let lines = [
      #"{"remote_addr":"a","request":"GET \/caf\u00e9 HTTP/1.1"}"#,
      #"{"remote_addr":"a","request":"GET /q\"x HTTP/1.1"}"#,
      #"{"remote_addr":"a","request":"GET /\xF0\x9F\x98\x80 HTTP/1.1"}"#,
      #"{"remote_addr":"a","request":"GET /\ud83d\ude00 HTTP/1.1"}"#,
    ].joined(separator: "\n")
    let partial = analyze(lines, options: AnalysisOptions(length: 2))
    #expect(partial.malformedLines == 0)
    #expect(
      partial.ranking(top: 0).map { $0.pageTexts } == [
        ["/café", "/q\"x"], ["/q\"x", "/😀"], ["/😀", "/😀"],
      ])
  }

  @Test func jsonKeysMapOtherNames() throws {
    let keys = try JSONKeys(mapping: "client=ip,path=url,time=ts")
    let lines = (1...3).map { #"{"ip":"a","url":"/\#($0)","ts":\#(1_700_000_000 + $0)}"# }
    let partial = analyze(
      lines.joined(separator: "\n"), options: AnalysisOptions(sessionGap: 60), format: .json(keys))
    #expect(ranked(partial) == ["/1-/2-/3:1"])
    #expect(throws: AnalysisOptionError.self) { try JSONKeys(mapping: "referrer=x") }
  }

  @Test func brokenJSONLinesAreMalformed() {
    let lines = [
      #"{"remote_addr":"a","request":"GET /1 HTTP/1.1"}"#, #"{"remote_addr":"a","request":"GET /2"#,
      #"{"remote_addr":"a" "request":"GET /3 HTTP/1.1"}"#, "not json", #"{"request":"GET /4"}"#,
      #"{"remote_addr":"a","x":{"y":[1,{"z":"]}"}]},"request":"GET /5 HTTP/1.1"}"#,
    ].joined(separator: "\n")
    let partial = analyze(lines, options: AnalysisOptions(length: 2))
    #expect(partial.lines == 6)
    #expect(partial.malformedLines == 4)
    #expect(ranked(partial) == ["/1-/5:1"])
    #expect(partial.firstMalformedLine == #"{"remote_addr":"a","request":"GET /2"#)
  }

  @Test func aW3CHeaderChangesTheFieldsForTheLinesAfterIt() {
    let text = """
      #Fields: c-ip cs-uri-stem
      a /1
      a /2
      #Fields: date time cs-uri-stem c-ip
      2024-01-01 00:00:00 /3 a
      2024-01-01 00:00:01 /4 a

      """
    for chunks in [1, 4] {
      let partial = analyze(text, options: AnalysisOptions(length: 4), chunks: chunks)
      #expect(ranked(partial) == ["/1-/2-/3-/4:1"])
      #expect(partial.lines == 4)
    }
    #expect(throws: AnalysisOptionError.self) {
      try Array("#Version: 1.0\na b\n".utf8).withUnsafeBytes {
        try LogAnalyzer.analyze($0, options: AnalysisOptions())
      }
    }
  }

  /// Written after the W3C draft's strings and IIS's fields: a quoted value with spaces (a
  /// cookie) is one value, so the status and bytes after it stay in their columns (Matomo's
  /// iis.log gave no status and 654 bytes instead of 27,028).
  @Test func aQuotedW3CValueWithSpacesIsOneValue() {
    let text = #"""
      #Software: Microsoft Internet Information Services 7.5
      #Version: 1.0
      #Date: 2012-04-01 00:00:01
      #Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Cookie) sc-status sc-substatus sc-win32-status sc-bytes time-taken
      2012-04-01 00:00:13 10.10.10.10 GET /foo/bar a=1 80 - 1.2.3.4 Mozilla/5.0+(X11) "session=a; other=""b c""" 200 0 0 27028 109
      2012-04-01 00:00:14 10.10.10.10 GET /foo/baz - 80 - 1.2.3.4 Mozilla/5.0+(X11) "x y" 404 0 2 654 15

      """#
    var options = AnalysisOptions(length: 2)
    options.panels = [.status, .bandwidth]
    let partial = analyze(text, options: options)
    #expect(partial.malformedLines == 0)
    #expect(ranked(partial) == ["/foo/bar?a=1-/foo/baz:1"])
    let panels = partial.panels(top: 0)
    #expect(panels.statuses.map(\.name) == ["200", "404"])
    #expect(panels.bytes == 27_028 + 654)
  }

  /// Field names of other W3C writers, after their documentation: Oracle Web Cache's and
  /// Incapsula's `cs-uri` (path and query), CloudFront RTMP's `c-user-agent` and `c-referrer`.
  @Test func otherW3CWritersFieldNamesAreRead() {
    let text = """
      #Fields: date time c-ip cs-method cs-uri sc-status c-user-agent c-referrer
      2024-01-01 00:00:00 1.2.3.4 GET /a?x=1 200 Agent%20One http://r.example/
      2024-01-01 00:00:01 1.2.3.4 GET /b 200 Agent%20One -

      """
    var options = AnalysisOptions(length: 2, client: .addressAndUserAgent)
    options.panels = [.referrers]
    let partial = analyze(text, options: options)
    #expect(partial.malformedLines == 0)
    #expect(ranked(partial) == ["/a?x=1-/b:1"])
    #expect(partial.panels(top: 0).referrers.map(\.name) == ["http://r.example/"])
  }

  /// A LogFormat with its own strftime date (Apache's `%{format}t`, as Matomo's importer takes
  /// a custom date): a virtual host, then a day-first date with a zone, in brackets.
  @Test func aStrftimeDateInTheFormatIsReadByIt() throws {
    let format = try LogFormat(#"%v %h %l %u [%{%d.%m.%Y %H:%M:%S %z}t] "%r" %>s %b"#)
    let text = """
      www.example.com 1.2.3.4 - - [27.11.2026 10:00:00 +0100] "GET /a HTTP/1.1" 200 10
      www.example.com 1.2.3.4 - - [27.11.2026 10:00:30 +0100] "GET /b HTTP/1.1" 200 10
      www.example.com 1.2.3.4 - - [2026-11-27 10:01:00] "GET /c HTTP/1.1" 200 10

      """
    let partial = Array(text.utf8).withUnsafeBytes {
      try? LogAnalyzer.analyze(
        $0, options: AnalysisOptions(length: 2), format: format, readingTimes: true)
    }
    #expect(partial?.malformedLines == 1)
    #expect(partial.map { ranked($0) } == ["/a-/b:1"])
    // 2026-11-27 09:00:00 UTC, written at +0100.
    #expect(partial?.timeRange == 1_795_770_000...1_795_770_030)
    #expect(partial?.timeRangeOffsets == TimeRangeOffsets(earliest: 3600, latest: 3600))
  }

  @Test(
    arguments: [
      ("%d/%b/%Y:%H:%M:%S %z", "06/Feb/2009:12:14:14 -0700", 1_233_947_654, -25_200),
      ("%F %T", "2009-02-06 12:14:14", 1_233_922_454, 0),
      ("%m/%d/%y %I:%M:%S %p", "02/06/09 12:14:14 AM", 1_233_879_254, 0),
      ("%e %B %Y %R", " 6 February 2009 12:14", 1_233_922_440, 0),
      ("%s", "1233922454", 1_233_922_454, 0),
    ] as [(String, String, Int64, Int64)])
  func strftimePatternsRead(pattern: String, text: String, seconds: Int64, offset: Int64) {
    let read = Array(text.utf8).withUnsafeBytes { bytes in
      LogTime.expandingShorthands(Array(pattern.utf8)).withUnsafeBytes {
        LogTime.reading(bytes, pattern: $0)
      }
    }
    #expect(read?.seconds == seconds && read?.offset == offset, "\(pattern)")
  }

  /// `docker compose logs` puts the service's name, padded, and `|` before each line of an
  /// nginx container (compose v1 `web_1`, v2 `web-1`): known by its first line, read by name.
  @Test func composePrefixedLinesAreRead() throws {
    let text = """
      web_1  | 172.18.0.1 - - [27/Nov/2026:10:00:00 +0000] "GET /a HTTP/1.1" 200 612 "-" "curl/8.4.0"
      web_1  | 172.18.0.1 - - [27/Nov/2026:10:00:01 +0000] "GET /b HTTP/1.1" 200 612 "-" "curl/8.4.0"
      proxy-1 | 172.18.0.9 - - [27/Nov/2026:10:00:02 +0000] "GET /c HTTP/1.1" 404 10

      """
    #expect(Array(text.utf8).withUnsafeBytes { LogFormat.detect($0) } == .compose)
    #expect(try LogFormat("docker-compose") == .compose)
    for format in [nil, LogFormat.compose] {
      let partial = analyze(text, options: AnalysisOptions(length: 2), format: format)
      #expect(partial.malformedLines == 0)
      #expect(partial.formatName == "compose")
      #expect(partial.clientCount == 2)
      #expect(ranked(partial) == ["/a-/b:1"])
    }
  }

  /// IIS Advanced Logging writes blank lines between its directives: the `#Fields:` line
  /// after them is found (lnav's logfile_w3c.3 was refused).
  @Test func blankLinesAmongW3CDirectivesAreSkipped() {
    let text =
      "#Software: IIS Advanced Logging Module\r\n\r\n#Version: 1.0\r\n\r\n"
      + "#Fields: date time c-ip cs-uri-stem sc-status\r\n\r\n"
      + "2012-04-01 00:00:13 1.2.3.4 /a 200\r\n2012-04-01 00:00:14 1.2.3.4 /b 200\r\n"
    let partial = analyze(text, options: AnalysisOptions(length: 2))
    #expect(ranked(partial) == ["/a-/b:1"])
    #expect(partial.lines == 2)
  }

  @Test func aFormatWithoutAFieldTheOptionsNeedIsRefused() {
    let text = LogWriter.combined(randomVisits(seed: 3, count: 10))
    let needs: [AnalysisOptions] = [
      AnalysisOptions(sessionGap: 60), AnalysisOptions(client: .addressAndUserAgent),
      AnalysisOptions(filters: VisitFilters(statuses: [200])),
    ]
    for options in needs {
      #expect(throws: AnalysisOptionError.self) {
        try Array(text.utf8).withUnsafeBytes {
          try LogAnalyzer.analyze($0, options: options, format: .apache(#"%h "%r""#))
        }
      }
    }
  }
}

@Suite struct SessionTests {
  @Test(arguments: 0..<16)
  func entryAndExitPagesAsTheReference(seed: Int) throws {
    var generator = SplitMix(seed: UInt64(seed) &+ 1000)
    let visits = randomVisits(seed: UInt64(seed) &+ 500, count: 20 + Int(generator.next() % 300))
    var options = randomOptions(&generator)
    options.sessionGap = [nil, 60, 1800][seed % 3]
    let text = LogWriter.combined(visits)
    for chunks in [1, 5] {
      let partial = analyze(text, options: options, chunks: chunks)
      #expect(ranked(partial) == Reference.ranking(visits, options))
      for end in PathEnd.allCases {
        let got = partial.ranking(of: end, top: 0).map { "\($0.pageTexts[0]):\($0.count)" }
        #expect(got == Reference.ends(visits, options, end), "\(end), \(chunks) chunks")
      }
      #expect(partial.pathCount == Reference.paths(visits, options).count)
      // A partial read back from its file merges as the original does.
      let half = visits.count / 2
      var first = try Partial(
        serialized: analyze(LogWriter.combined(Array(visits[..<half])), options: options)
          .serialized())
      first.append(
        try Partial(
          serialized: analyze(LogWriter.combined(Array(visits[half...])), options: options)
            .serialized()))
      #expect(ranked(first) == ranked(partial))
      for end in PathEnd.allCases {
        #expect(first.ranking(of: end, top: 0) == partial.ranking(of: end, top: 0))
      }
    }
  }

  @Test func noSequenceSpansTheGap() {
    let visits = [0, 10, 20, 5000, 5010, 5020].enumerated().map { index, time in
      Visit(address: "a", page: "/\(index)", time: 1_700_000_000 + Int64(time))
    }
    let partial = analyze(LogWriter.combined(visits), options: AnalysisOptions(sessionGap: 1800))
    #expect(ranked(partial) == ["/0-/1-/2:1", "/3-/4-/5:1"])
    #expect(partial.ranking(of: .entry, top: 0).map(\.pageTexts) == [["/0"], ["/3"]])
    #expect(partial.ranking(of: .exit, top: 0).map(\.pageTexts) == [["/2"], ["/5"]])
  }

  @Test func theTimeRangeIsReadWhenAsked() throws {
    let visits = randomVisits(seed: 6, count: 200)
    let text = LogWriter.combined(visits)
    let expected = visits.map(\.time).min()!...visits.map(\.time).max()!
    for chunks in [1, 5] {
      let partial = try Array(text.utf8).withUnsafeBytes {
        try LogAnalyzer.analyze($0, options: AnalysisOptions(), readingTimes: true, chunks: chunks)
      }
      #expect(partial.timeRange == expected)
      #expect(try Partial(serialized: partial.serialized()).timeRange == expected)
      #expect(ranked(partial) == ranked(analyze(text)))
    }
    #expect(analyze(text).timeRange == nil)
  }

  @Test func partialsOfOtherOptionsDoNotMerge() throws {
    let text = LogWriter.combined(randomVisits(seed: 4, count: 40))
    let plain = analyze(text).serialized()
    let sessions = analyze(text, options: AnalysisOptions(sessionGap: 60)).serialized()
    #expect(try Partial(serialized: plain).options != Partial(serialized: sessions).options)
    #expect(try Partial(serialized: sessions).options.sessionGap == 60)
  }
}

@Suite struct FilterValueTests {
  @Test func statusesReadCodesAndClasses() throws {
    #expect(try VisitFilters.statuses("304,2xx").count == 101)
    #expect(try VisitFilters.statuses("404") == [404])
    for bad in ["2xx,", "600", "abc", "20", "6xx"] {
      #expect(throws: AnalysisOptionError.self) { try VisitFilters.statuses(bad) }
    }
  }

  @Test func addressRanges() throws {
    let v4 = try AddressRange("10.1.0.0/16")
    #expect(v4.contains(AddressRange.address("10.1.200.3")!))
    #expect(!v4.contains(AddressRange.address("10.2.0.1")!))
    let v6 = try AddressRange("2001:db8::/33")
    #expect(v6.contains(AddressRange.address("2001:db8:7fff::1")!))
    #expect(!v6.contains(AddressRange.address("2001:db8:8000::1")!))
    #expect(!v6.contains(AddressRange.address("10.1.0.1")!))
    #expect(try AddressRange("[::1]").contains(AddressRange.address("::1")!))
    for bad in ["10.0.0.0/33", "10.0.0", "host.example", "::1/129", "10.0.0.0/-1"] {
      #expect(throws: AnalysisOptionError.self) { try AddressRange(bad) }
    }
  }

  @Test func times() throws {
    func seconds(_ text: String) -> Int64? {
      Array(text.utf8).withUnsafeBytes { LogTime.seconds($0) }
    }
    #expect(seconds("10/Oct/2000:13:55:36 -0700") == 971_211_336)
    #expect(seconds("[10/oct/2000:13:55:36 -0700]") == 971_211_336)
    #expect(seconds("2000-10-10T20:55:36Z") == 971_211_336)
    #expect(seconds("2000-10-10T22:55:36.123+02:00") == 971_211_336)
    #expect(seconds("971211336.5") == 971_211_336)
    #expect(seconds("10/Foo/2000:13:55:36 -0700") == nil)
    #expect(seconds("2000-13-10T20:55:36Z") == nil)
    #expect(try LogTime.bound("2000-10-10", end: false) == 971_136_000)
    #expect(try LogTime.bound("2000-10-10", end: true) == 971_222_400)
    #expect(try LogTime.bound("2000-10-10T20:55", end: true) == 971_211_360)
    #expect(try LogTime.bound("2000-10-10T22:55:36+02:00", end: false) == 971_211_336)
    #expect(throws: AnalysisOptionError.self) { try LogTime.bound("yesterday", end: false) }
  }

  @Test func apacheTimesReadAsFoundationReadsThem() {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "dd/MMM/yyyy:HH:mm:ss Z"
    var generator = SplitMix(seed: 11)
    let months = [
      "Jan", "FEB", "mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    for _ in 0..<2000 {
      func number(_ limit: UInt64, from first: UInt64 = 0) -> String {
        let value = first + generator.next() % limit
        return value < 10 ? "0\(value)" : "\(value)"
      }
      let zone =
        "\(generator.next() % 2 == 0 ? "+" : "-")\(number(15))\(["00", "30", "45"][Int(generator.next() % 3)])"
      let text =
        "\(number(28, from: 1))/\(months[Int(generator.next() % 12)])/\(1970 + generator.next() % 100):"
        + "\(number(24)):\(number(60)):\(number(60)) \(zone)"
      let expected = formatter.date(from: text).map { Int64($0.timeIntervalSince1970) }
      #expect(Array(text.utf8).withUnsafeBytes { LogTime.seconds($0) } == expected, "\(text)")
      #expect(Array("[\(text)]".utf8).withUnsafeBytes { LogTime.seconds($0) } == expected)
    }
    for clock in ["24:00:00", "13:60:00", "13:00:61"] {
      #expect(
        Array("10/Oct/2000:\(clock) +0000".utf8).withUnsafeBytes { LogTime.seconds($0) } == nil)
    }
  }
}

@Suite struct BotsFileTests {
  @Test func aBotsFileListsOneFragmentALineWithoutCommentsAndBlanks() {
    #expect(
      BotPatterns.listed(in: "# mine\n  MyBot  \n\r\nother/1\n#no\n") == ["MyBot", "other/1"])
  }

}

@Suite struct NoLineReadsTests {
  @Test func aLogReadsWhenOneLineReadsAndNotWhenNoneDoes() {
    #expect(analyze("junk\nmore junk\n").noLineReads)
    #expect(!analyze("junk\n" + line("a", "/")).noLineReads)
    // No line at all is no verdict: blank lines and comments are not lines.
    #expect(!analyze("\n#comment\n", format: .combined).noLineReads)
  }
}
