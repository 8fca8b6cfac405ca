import Foundation
import LogAnalysisTestSupport
import LogFormats
import Testing

@testable import LogAnalysis

/// Lines shaped as the real logs of other log tools' repositories and live servers write them,
/// where fetcher once read them wrong (written anew here, with the same shapes).
@Suite struct RealShapesTests {
  private func format(of text: String) -> String {
    Array(text.utf8).withUnsafeBytes { LogFormat.detect($0) }.name
  }

  /// Squid writes `NONE_NONE/000` with `-` for the method and a pseudo-URL for a connection
  /// that ended before its request (health checks, TLS probes): a visit that names no page,
  /// never a page repeated in the sequences.
  @Test func squidsLinesForConnectionsWithoutARequestNameNoPage() {
    let probe =
      "1696945536.123      0 10.1.1.1 NONE_NONE/000 0 - error:transaction-end-before-headers - HIER_NONE/- -"
    let text =
      [
        probe, probe,
        "1696945537.123     10 10.1.1.1 TCP_MISS/200 500 GET http://example.com/a - HIER_DIRECT/93.184.216.34 text/html",
        probe,
        "1696945539.123     10 10.1.1.1 TCP_MISS/200 500 GET http://example.com/b - HIER_DIRECT/93.184.216.34 text/html",
      ].joined(separator: "\n") + "\n"
    #expect(format(of: text) == "squid")
    let partial = analyze(text, options: AnalysisOptions(length: 2))
    #expect(partial.lines == 5)
    #expect(partial.malformedLines == 0)
    #expect(partial.unreadableRequests == 3)
    #expect(ranked(partial) == ["http://example.com/a-http://example.com/b:1"])
  }

  /// Every client is counted, as GoAccess counts hosts: those whose visits never named a
  /// page (scanners sending junk, nginx's `-` for a connection that sent nothing) beside the
  /// others, said apart; a client that also named a page is counted once. The clients panel
  /// lists them all with all their visits and bytes, as GoAccess's hosts panel does. The fast
  /// path, a layout's (JSON lines, and the address and agent as the client), one chunk or
  /// several.
  @Test(arguments: [1, 3])
  func clientsWhoseVisitsNamedNoPageAreCountedApart(chunks: Int) {
    func combined(_ client: String, _ request: String, _ size: Int) -> String {
      #"\#(client) - - [10/Oct/2023:13:55:36 +0000] "\#(request)" 400 \#(size) "-" "agent""#
    }
    let lines = [
      combined("1.1.1.1", "GET /a HTTP/1.1", 100), combined("2.2.2.2", "-", 0),
      combined("1.1.1.1", "-", 7), combined("3.3.3.3", #"\x16\x03\x01"#, 166),
      combined("2.2.2.2", "-", 0), combined("1.1.1.1", "GET /b HTTP/1.1", 20),
      combined("4.4.4.4", "GET /a HTTP/1.1", 5),
    ]
    let text = lines.joined(separator: "\n") + "\n"
    var options = AnalysisOptions(length: 2)
    options.panels = [.clients]
    let partial = analyze(text, options: options, chunks: chunks)
    #expect(partial.unreadableRequests == 4)
    #expect(partial.clientCount == 2)
    #expect(partial.clientsWithoutPage == 2)
    #expect(ranked(partial) == ["/a-/b:1"])
    #expect(
      partial.panels(top: 0).clients == [
        PanelRow(name: "1.1.1.1", count: 3, bytes: 127),
        PanelRow(name: "2.2.2.2", count: 2, bytes: 0),
        PanelRow(name: "3.3.3.3", count: 1, bytes: 166),
        PanelRow(name: "4.4.4.4", count: 1, bytes: 5),
      ])
    #expect(partial.panels(top: 2).clients.map(\.name) == ["1.1.1.1", "2.2.2.2"])

    var byAgent = AnalysisOptions(length: 2, client: .addressAndUserAgent)
    byAgent.panels = [.clients]
    let json =
      [
        #"{"remote_addr":"1.1.1.1","request":"GET /a HTTP/1.1","status":200,"http_user_agent":"x"}"#,
        #"{"remote_addr":"1.1.1.1","request":"-","status":400,"http_user_agent":"y"}"#,
        #"{"remote_addr":"1.1.1.1","request":"-","status":400,"http_user_agent":"x"}"#,
        #"{"remote_addr":"5.5.5.5","request":"-","status":400,"http_user_agent":"x"}"#,
      ].joined(separator: "\n") + "\n"
    let read = analyze(json, options: byAgent, chunks: chunks)
    #expect(read.unreadableRequests == 3)
    #expect(read.clientCount == 1)
    #expect(read.clientsWithoutPage == 2)
    #expect(read.panels(top: 0).clients.map(\.count) == [2, 1, 1])
  }

  /// Test fixtures, annotated excerpts and logs with a banner start with `#` lines that are no
  /// W3C directives: the entries say the format; only `#Version:` or `#Fields:` makes W3C.
  @Test(arguments: [
    (
      #"1.2.3.4 - - [10/Oct/2023:13:55:36 +0000] "GET /a HTTP/1.1" 200 10 "-" "Mozilla/5.0""#,
      "combined"
    ),
    (
      "1696945537.123     10 10.1.1.1 TCP_MISS/200 500 GET http://example.com/a - HIER_DIRECT/93.184.216.34 text/html",
      "squid"
    ),
    (
      #"{"level":"info","ts":1696945537.1,"msg":"handled request","request":{"remote_ip":"1.2.3.4","method":"GET","uri":"/a"},"status":200}"#,
      "caddy"
    ),
  ])
  func commentLinesBeforeTheEntriesAreNotAW3CHeader(entry: String, name: String) {
    let text = "# access log excerpt, annotated\n#\n# (c) example\n\n\(entry)\n\(entry)\n"
    #expect(format(of: text) == name)
    let partial = analyze(text)
    #expect(partial.lines == 2)
    #expect(partial.malformedLines == 0)
    #expect(partial.commentLines == 3)
    #expect(format(of: "#Software: IIS\n#Version: 1.0\n" + text) == "w3c")
  }

  /// An IIS line with two spaces between two values (`444  random\user`) is read as if one:
  /// every later field stays in its place; a status of `-` is malformed, as the docs say.
  @Test func w3cValuesAfterARunOfSpacesKeepTheirFields() {
    let text = """
      #Software: Microsoft Internet Information Services 10.0
      #Version: 1.0
      #Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) sc-status sc-substatus sc-win32-status time-taken
      2023-10-10 00:00:01 10.0.0.1 GET /a - 444  random\\user 1.2.3.4 Mozilla/5.0 200 0 0 15
      2023-10-10 00:00:02 10.0.0.1 GET /b - 444 - 1.2.3.4 Mozilla/5.0 200 0 0 15
      2023-10-10 00:00:03 10.0.0.1 GET /c - 444 - 1.2.3.4 Mozilla/5.0 - 0 0 15

      """
    let partial = analyze(text, options: AnalysisOptions(length: 2))
    #expect(partial.lines == 3)
    #expect(partial.malformedLines == 1)
    #expect(partial.clientCount == 1)
    #expect(ranked(partial) == ["/a-/b:1"])
  }

  /// IIS Advanced Logging: runs of spaces in `#Fields:`, `date-local` and `time-local`, lines
  /// of spaces among the directives, quoted values.
  @Test func iisAdvancedLoggingReads() {
    let text = """
      #Software: Microsoft Internet Information Services Advanced Logging Module
      #Version: 1.0
      \u{20}\u{20}
      #Start-Date: 2023-10-10 00:00:00.000
      #Fields:   date-local time-local   s-ip cs-method cs-uri-stem cs-uri-query c-ip cs(User-Agent) sc-status
      2023-10-10 00:00:01.000 10.0.0.1 GET /a - 1.2.3.4 "Mozilla/5.0 (X11)" 200
      2023-10-10 00:00:02.000 10.0.0.1 GET /b - 1.2.3.4 "Mozilla/5.0 (X11)" 200
      \u{20}\t
      2023-10-10 00:00:03.000 10.0.0.1 GET /c - 1.2.3.4 "Mozilla/5.0 (X11)" 200

      """
    #expect(format(of: text) == "w3c" && text.contains("\n  \n"))
    var options = AnalysisOptions(length: 3)
    options.sessionGap = 60
    let partial = analyze(text, options: options)
    #expect(partial.lines == 3)
    #expect(partial.malformedLines == 0)
    #expect(ranked(partial) == ["/a-/b-/c:1"])
  }

  /// IIS can leave the date to its `#Date:` directive: the lines read, without a time; what
  /// needs the time says the date is missing.
  @Test func iisWithoutADateReadsAndSaysWhatIsMissing() throws {
    let text = """
      #Software: Microsoft Internet Information Services 6.0
      #Version: 1.0
      #Date: 2023-10-10 00:00:00
      #Fields: time c-ip cs-method cs-uri-stem sc-status
      00:00:01 1.2.3.4 GET /a 200
      00:00:02 1.2.3.4 GET /b 200

      """
    let partial = analyze(text, options: AnalysisOptions(length: 2))
    #expect(partial.malformedLines == 0)
    #expect(ranked(partial) == ["/a-/b:1"])
    var options = AnalysisOptions(length: 2)
    options.sessionGap = 60
    #expect {
      _ = try Array(text.utf8).withUnsafeBytes {
        try LogAnalyzer.analyze($0, options: options, format: nil, chunks: 1)
      }
    } throws: { error in
      "\(error)".contains("names a time but no date")
    }
  }

  /// An ALB logs WebSocket and HTTP/2 requests with `ws://`, `wss://` and `h2://` URLs: pages
  /// as `https://` ones are; a request that does not read (`- - - `) names no page.
  @Test func albRequestsOfEveryProtocolAreVisits() {
    let lines = [
      ("h2", "https://www.example.com:443/a", "HTTP/2.0"),
      ("ws", "ws://www.example.com:80/b", "HTTP/1.1"),
      ("wss", "wss://www.example.com:443/c", "HTTP/1.1"),
      ("h2", "h2://www.example.com:443/d", "HTTP/2.0"),
    ].enumerated().map { index, request in
      "\(request.0) 2023-10-10T00:00:0\(index + 1).000000Z app/my-lb/50dc6c495c0c9188 1.2.3.4:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 \"GET \(request.1) \(request.2)\" \"curl/7.46.0\" - - arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/t/73e2d6bc24d8a067 \"Root=1-58337262-36d228ad5d99923122bbe354\" \"-\" \"-\" 1 2023-10-10T00:00:00.999000Z \"forward\" \"-\" \"-\" \"10.0.0.1:80\" \"200\" \"-\" \"-\""
    }
    let refused =
      #"http 2023-10-10T00:00:05.000000Z app/my-lb/50dc6c495c0c9188 1.2.3.4:2817 - -1 -1 -1 400 - 0 0 "- - - " "-" - - - "-" "-" "-" - 2023-10-10T00:00:04.999000Z "-" "-" "-" "-" "-" "-" "-""#
    let text = (lines + [refused]).joined(separator: "\n") + "\n"
    #expect(format(of: text) == "alb")
    let partial = analyze(text, options: AnalysisOptions(length: 4))
    #expect(partial.lines == 5)
    #expect(partial.malformedLines == 0)
    #expect(partial.unreadableRequests == 1)
    #expect(ranked(partial) == ["/a-/b-/c-/d:1"])
  }
}
