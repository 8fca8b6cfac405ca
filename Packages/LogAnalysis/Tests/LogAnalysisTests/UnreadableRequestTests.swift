import Foundation
import LogAnalysisTestSupport
import Testing

@testable import LogAnalysis

/// Lines whose request names no page, written after nginx's `combined` format
/// (`$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent
/// "$http_referer" "$http_user_agent"`): `-` for a connection that sent no request, and what
/// scanners send. GoAccess counts each as a request with its status and bytes.
@Suite struct UnreadableRequestTests {
  private let text =
    [
      #"1.2.3.4 - - [10/Oct/2023:13:55:36 +0000] "-" 400 0 "-" "-""#,
      #"1.2.3.4 - - [10/Oct/2023:13:55:37 +0000] "GET /x Win 7 Professional HTTP/1.1" 400 157 "-" "-""#,
      #"1.2.3.4 - - [10/Oct/2023:13:55:38 +0000] "\x16\x03\x01\x00\xCA\x01\x00\x00\xC6" 400 157 "-" "-""#,
      #"1.2.3.4 - - [10/Oct/2023:13:55:39 +0000] "XP|'|'|No-Interaction" 400 157 "http://r.example/" "-""#,
      #"5.6.7.8 - - [10/Oct/2023:14:01:00 +0000] "GET / HTTP/1.1" 200 612 "-" "curl/8.0""#,
      #"5.6.7.8 - - [10/Oct/2023:14:01:01 +0000] "GET /a HTTP/1.1" 404 100 "-" "curl/8.0""#,
    ].joined(separator: "\n") + "\n"

  /// The same counts by the fast path (no filter) and by the full reading (a filter that
  /// keeps every line), in one chunk and in several.
  @Test(arguments: [false, true])
  func theyAreRequestsWithTheirStatusAndBytesButNoPage(fullReading: Bool) throws {
    var options = AnalysisOptions(length: 2)
    options.panels = .all
    if fullReading { options.filters.statuses = [200, 400, 404] }
    for chunks in [1, 3] {
      let partial = analyze(text, options: options, chunks: chunks)
      #expect(partial.lines == 6)
      #expect(partial.malformedLines == 0)
      #expect(partial.unreadableRequests == 4)
      #expect(ranked(partial) == ["/-/a:1"])
      let panels = partial.panels(top: 0)
      #expect(panels.visits == 6)
      #expect(panels.bytes == 157 * 3 + 612 + 100)
      #expect(panels.statuses.map(\.name) == ["400", "200", "404"])
      #expect(panels.statuses.map(\.count) == [4, 1, 1])
      #expect(panels.pages.map(\.name) == ["/", "/a"])
      #expect(panels.notFound.map(\.name) == ["/a"])
      #expect(panels.referrers.map(\.name) == ["http://r.example/"])
      #expect(panels.hours.map(\.count).reduce(0, +) == 6)
    }
  }

  @Test func theCountSurvivesAPartialFileAndAMerge() throws {
    let half = analyze(text)
    var merged = try Partial(serialized: half.serialized())
    #expect(merged.unreadableRequests == 4)
    merged.append(half)
    #expect(merged.unreadableRequests == 8)
  }

  /// lnav's one-line case: a log of nothing but such a line is still a combined log.
  @Test func aLogOfOnlySuchALineIsDetected() throws {
    let line = Array(#"192.168.1.1 - - [27/Nov/2026:10:00:00 +0100] "-" 400 0 "-" "-""#.utf8)
    #expect(line.withUnsafeBytes { LineParser.shape(of: $0) } == .combined)
  }

  @Test(arguments: [
    ("GET /a HTTP/1.1", true), ("GET /a", true), ("M-SEARCH /x HTTP/1.1", true),
    ("GET http://h.example/a HTTP/1.1", true), ("-", false), ("", false), ("GET", false),
    ("GET 7 HTTP/1.1", false), ("GET /x Win 7 HTTP/1.1", false), ("G3T /a HTTP/1.1", false),
    ("CONNECT h.example:443 HTTP/1.1", false),
  ])
  func theRuleOfARequest(request: String, readable: Bool) {
    let bytes = Array(request.utf8)
    let named = bytes.withUnsafeBytes { RequestLine.methodAndPage($0) != nil }
    #expect(named == readable)
  }
}
