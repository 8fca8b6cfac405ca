import Foundation
import LogAnalysisTestSupport
import Testing

@testable import LogAnalysis

/// HAProxy's HTTP log, written after its configuration manual ("HTTP log format"): through
/// syslog (a header first) or to standard output (none), with captured headers or without.
@Suite struct HAProxyTests {
  private let text =
    [
      #"Feb  6 12:14:14 localhost haproxy[14389]: 10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu} {} "GET /index.html HTTP/1.1""#,
      #"Feb  6 12:14:15 localhost haproxy[14389]: 10.0.1.2:33318 [06/Feb/2009:12:14:15.001] http-in static/srv1 9/0/7/14/30 404 312 - - ---- 1/1/1/1/0 0/0 "GET /missing HTTP/1.1""#,
      #"10.0.1.3:40000 [06/Feb/2009:12:14:16.000] http-in~ app/srv2 0/0/1/2/3 200 +1024 - - ---- 2/2/0/0/0 0/0 "GET /a?x=1 HTTP/1.1""#,
      #"10.0.1.4:40001 [06/Feb/2009:12:14:17.000] http-in http-in/<NOSRV> -1/-1/-1/-1/0 400 187 - - PR-- 1/1/0/0/0 0/0 "<BADREQ>""#,
    ].joined(separator: "\n") + "\n"

  @Test func itIsKnownByItsFirstLineAndRead() throws {
    #expect(Array(text.utf8).withUnsafeBytes { LogFormat.detect($0) } == .haproxy)
    #expect(try LogFormat("haproxy") == .haproxy)
    var options = AnalysisOptions(length: 2)
    options.panels = [.status, .bandwidth]
    for format in [nil, LogFormat.haproxy] {
      let partial = analyze(text, options: options, format: format)
      #expect(partial.formatName == "haproxy")
      #expect(partial.lines == 4)
      #expect(partial.malformedLines == 0)
      #expect(partial.unreadableRequests == 1)
      #expect(partial.clientCount == 2)
      #expect(ranked(partial) == ["/index.html-/missing:1"])
      let panels = partial.panels(top: 0)
      #expect(panels.statuses.map(\.name) == ["200", "400", "404"])
      #expect(panels.bytes == 2750 + 312 + 1024 + 187)
    }
  }

  @Test func theAcceptDateIsTheTime() throws {
    let partial = Array(text.utf8).withUnsafeBytes {
      try? LogAnalyzer.analyze($0, options: AnalysisOptions(), format: .haproxy, readingTimes: true)
    }
    // 2009-02-06 12:14:14 to 12:14:17, the proxy's clock read as UTC.
    #expect(partial?.timeRange == 1_233_922_454...1_233_922_457)
  }

  @Test func aLineOfAnotherShapeIsMalformed() {
    let partial = analyze(
      text + #"Feb  6 12:14:18 localhost haproxy[14389]: Proxy http-in started."# + "\n",
      format: .haproxy)
    #expect(partial.malformedLines == 1)
  }
}
