import LogFormats
import Testing

/// The readers of LogFormats from outside the package, as another tool would use them.
@Suite struct LogLineReaderTests {
  @Test func aCombinedLineGivesItsFields() throws {
    let reader = try LogLineReader(.combined)
    let line = reader.read(
      #"10.0.0.1 - bob [10/Oct/2024:13:55:36 +0200] "POST /cart?x=1 HTTP/1.1" 302 512 "#
        + #""https://example.com/" "curl/8.5""#)
    #expect(
      line
        == LogLine(
          client: "10.0.0.1", method: "POST", page: "/cart?x=1", status: 302, bytes: 512,
          referer: "https://example.com/", userAgent: "curl/8.5", time: 1_728_561_336))
  }

  @Test func aLineThatDoesNotFollowTheFormatIsNil() throws {
    let reader = try LogLineReader(.combined)
    #expect(reader.read("not a log line") == nil)
    #expect(
      reader.read(#"10.0.0.1 - - [10/Oct/2024:13:55:36 +0000] "GET / HTTP/1.1" 2000 5"#) == nil)
    // A request that names no page is a line, without a page.
    let noPage = reader.read(#"10.0.0.1 - - [10/Oct/2024:13:55:36 +0000] "-" 400 0 "-" "-""#)
    #expect(noPage?.page == nil)
    #expect(noPage?.status == 400)
    #expect(noPage?.userAgent == nil)
  }

  @Test func aW3CLogIsReadByItsFieldsLine() throws {
    let header =
      "#Software: Microsoft Internet Information Services 10.0\n"
      + "#Fields: date time c-ip cs-method cs-uri-stem cs-uri-query sc-status sc-bytes\n"
    #expect(LogLineReader.format(of: header) == .w3c)
    let reader = try LogLineReader(.w3c, header: header)
    let line = reader.read("2024-10-10 13:55:36 10.0.0.7 GET /index.html a=1 200 1024")
    #expect(line?.client == "10.0.0.7")
    #expect(line?.page == "/index.html?a=1")
    #expect(line?.bytes == 1024)
    #expect(line?.time == 1_728_568_536)
    #expect(throws: AnalysisOptionError.self) { try LogLineReader(.w3c) }
  }

  @Test func aFormatIsFoundFromTheFirstLines() {
    #expect(
      LogLineReader.format(of: #"10.0.0.1 - - [10/Oct/2024:13:55:36 +0000] "GET / HTTP/1.1" 200 5"#)
        == .common)
    #expect(LogLineReader.format(of: #"{"remote_addr":"10.0.0.1"}"#).name == "json")
  }
}
