import Foundation
import Testing

/// A log of each format both read, beside GoAccess 1.7 on the same lines: lines, valid
/// requests (visits), failed (malformed), hosts (every client, a page named or not), bytes,
/// and the hosts panel (each host's requests and bytes) agree. Where GoAccess's predefined name for the format fails on the lines (Squid, ELB), its
/// documented format string is given; its W3C format reads no bytes. `docs/analysis.md` lists
/// the formats and what differs.
@Suite struct GoAccessFormatsTests {
  /// A log, how fetcher and GoAccess are told its format, and whether GoAccess reads its bytes.
  struct FormatCase: Sendable, CustomTestStringConvertible {
    let name: String
    let lines: [String]
    let fetcher: [String]
    let goaccess: [String]
    var comparesBytes = true

    init(
      _ name: String, lines: [String], fetcher: [String], goaccess: [String],
      comparesBytes: Bool = true
    ) {
      (self.name, self.lines, self.fetcher, self.goaccess) = (name, lines, fetcher, goaccess)
      self.comparesBytes = comparesBytes
    }

    var testDescription: String { name }
  }

  static let cases = [
    FormatCase(
      "combined",
      lines: [
        #"1.2.3.4 - - [10/Oct/2023:13:55:36 +0000] "GET /a HTTP/1.1" 200 100 "-" "Mozilla/5.0""#,
        #"1.2.3.4 - - [10/Oct/2023:13:55:37 +0000] "GET /b HTTP/1.1" 404 50 "http://x.example/" "Mozilla/5.0""#,
        #"5.6.7.8 - - [10/Oct/2023:13:55:38 +0000] "-" 400 0 "-" "-""#,
      ],
      fetcher: [],
      goaccess: [#"--log-format=COMBINED"#]
    ),
    FormatCase(
      "common",
      lines: [
        #"1.2.3.4 - - [10/Oct/2023:13:55:36 +0000] "GET /a HTTP/1.1" 200 100"#,
        #"1.2.3.4 - - [10/Oct/2023:13:55:37 +0000] "GET /b HTTP/1.1" 404 50"#,
        #"5.6.7.8 - - [10/Oct/2023:13:55:38 +0000] "POST /c HTTP/1.1" 201 -"#,
      ],
      fetcher: [],
      goaccess: [#"--log-format=COMMON"#]
    ),
    FormatCase(
      "vcombined",
      lines: [
        #"example.com:80 1.2.3.4 - - [10/Oct/2023:13:55:36 +0000] "GET /a HTTP/1.1" 200 100 "-" "Mozilla/5.0""#,
        #"example.com:443 1.2.3.4 - - [10/Oct/2023:13:55:37 +0000] "GET /b HTTP/1.1" 304 0 "-" "Mozilla/5.0""#,
        #"other.org:80 9.9.9.9 - - [10/Oct/2023:13:55:39 +0000] "GET /a HTTP/1.1" 200 10 "-" "curl/8""#,
      ],
      fetcher: [],
      goaccess: [#"--log-format=VCOMBINED"#]
    ),
    FormatCase(
      "common_vhost",
      lines: [
        #"example.com:80 1.2.3.4 - - [10/Oct/2023:13:55:36 +0000] "GET /a HTTP/1.1" 200 100"#,
        #"example.com:80 1.2.3.4 - - [10/Oct/2023:13:55:37 +0000] "GET /b HTTP/1.1" 404 50"#,
        #"other.org:80 9.9.9.9 - - [10/Oct/2023:13:55:39 +0000] "GET /a HTTP/1.1" 200 10"#,
      ],
      fetcher: [#"--log-format"#, #"common_vhost"#],
      goaccess: [#"--log-format=VCOMMON"#]
    ),
    FormatCase(
      "caddy",
      lines: [
        #"{"level":"info","ts":1696945537.1,"logger":"http.log.access","msg":"handled request","request":{"remote_ip":"1.2.3.4","remote_port":"5000","proto":"HTTP/1.1","method":"GET","host":"example.com","uri":"/a","headers":{"User-Agent":["Mozilla/5.0"]}},"bytes_read":0,"user_id":"","duration":0.001,"size":100,"status":200,"resp_headers":{}}"#,
        #"{"level":"info","ts":1696945538.1,"logger":"http.log.access","msg":"handled request","request":{"remote_ip":"1.2.3.4","remote_port":"5000","proto":"HTTP/1.1","method":"GET","host":"example.com","uri":"/b","headers":{"User-Agent":["Mozilla/5.0"]}},"bytes_read":0,"user_id":"","duration":0.001,"size":50,"status":404,"resp_headers":{}}"#,
        #"{"level":"info","ts":1696945539.1,"logger":"http.log.access","msg":"handled request","request":{"remote_ip":"5.6.7.8","remote_port":"5000","proto":"HTTP/1.1","method":"GET","host":"example.com","uri":"/a","headers":{"User-Agent":["curl/8"]}},"bytes_read":0,"user_id":"","duration":0.001,"size":10,"status":200,"resp_headers":{}}"#,
      ],
      fetcher: [],
      goaccess: [#"--log-format=CADDY"#]
    ),
    FormatCase(
      "alb",
      lines: [
        #"https 2023-10-10T13:55:36.123456Z app/my-lb/50dc6c495c0c9188 1.2.3.4:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 100 "GET https://example.com:443/a HTTP/1.1" "Mozilla/5.0" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337262-36d228ad5d99923122bbe354" "example.com" "arn:aws:acm:us-east-2:123456789012:certificate/12345678-1234-1234-1234-123456789012" 0 2023-10-10T13:55:36.120000Z "forward" "-" "-" "10.0.0.1:80" "200" "-" "-""#,
        #"https 2023-10-10T13:55:37.123456Z app/my-lb/50dc6c495c0c9188 1.2.3.4:2817 10.0.0.1:80 0.000 0.001 0.000 404 404 34 50 "GET https://example.com:443/b HTTP/1.1" "Mozilla/5.0" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337262-36d228ad5d99923122bbe354" "example.com" "arn:aws:acm:us-east-2:123456789012:certificate/12345678-1234-1234-1234-123456789012" 0 2023-10-10T13:55:37.120000Z "forward" "-" "-" "10.0.0.1:80" "404" "-" "-""#,
        #"http 2023-10-10T13:55:38.123456Z app/my-lb/50dc6c495c0c9188 5.6.7.8:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 10 "GET http://example.com:80/a HTTP/1.1" "curl/8" - - arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337262-36d228ad5d99923122bbe354" "-" "-" 0 2023-10-10T13:55:38.120000Z "forward" "-" "-" "10.0.0.1:80" "200" "-" "-""#,
      ],
      fetcher: [],
      goaccess: [#"--log-format=AWSALB"#]
    ),
    FormatCase(
      "s3",
      lines: [
        #"79a59df900b949e55d96a1e698fbacedfd6e09d98eacf8f8d5218e7cd47ef2be awsexamplebucket1 [06/Feb/2019:00:00:38 +0000] 192.0.2.3 79a59df900b949e55d96a1e698fbacedfd6e09d98eacf8f8d5218e7cd47ef2be 3E57427F3EXAMPLE REST.GET.OBJECT a.txt "GET /awsexamplebucket1/a.txt HTTP/1.1" 200 - 113 113 7 - "-" "S3Console/0.4" - s9lzHYrFp76ZVxRcpX9= SigV2 ECDHE-RSA-AES128-GCM-SHA256 AuthHeader awsexamplebucket1.s3.us-west-1.amazonaws.com TLSV1.1"#,
        #"79a59df900b949e55d96a1e698fbacedfd6e09d98eacf8f8d5218e7cd47ef2be awsexamplebucket1 [06/Feb/2019:00:00:39 +0000] 192.0.2.3 79a59df900b949e55d96a1e698fbacedfd6e09d98eacf8f8d5218e7cd47ef2be 3E57427F3EXAMPLF REST.GET.OBJECT b.txt "GET /awsexamplebucket1/b.txt HTTP/1.1" 404 NoSuchKey 243 - 7 - "-" "S3Console/0.4" - s9lzHYrFp76ZVxRcpX9= SigV2 ECDHE-RSA-AES128-GCM-SHA256 AuthHeader awsexamplebucket1.s3.us-west-1.amazonaws.com TLSV1.1"#,
        #"79a59df900b949e55d96a1e698fbacedfd6e09d98eacf8f8d5218e7cd47ef2be awsexamplebucket1 [06/Feb/2019:00:00:40 +0000] 192.0.2.9 79a59df900b949e55d96a1e698fbacedfd6e09d98eacf8f8d5218e7cd47ef2be 3E57427F3EXAMPLG REST.GET.OBJECT a.txt "GET /awsexamplebucket1/a.txt HTTP/1.1" 200 - 113 113 7 - "-" "aws-cli/2" - s9lzHYrFp76ZVxRcpX9= SigV2 ECDHE-RSA-AES128-GCM-SHA256 AuthHeader awsexamplebucket1.s3.us-west-1.amazonaws.com TLSV1.1"#,
      ],
      fetcher: [],
      goaccess: [#"--log-format=AWSS3"#]
    ),
    FormatCase(
      "cloudfront",
      lines: [
        #"#Version: 1.0"#,
        #"#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end"#,
        [
          #"2019-12-04"#, #"21:02:31"#, #"LAX1"#, #"392"#, #"192.0.2.100"#, #"GET"#,
          #"d111.cloudfront.net"#, #"/index.html"#, #"200"#, #"-"#, #"Mozilla/5.0"#, #"-"#, #"-"#,
          #"Hit"#, #"SOX4x=="#, #"d111.cloudfront.net"#, #"https"#, #"23"#, #"0.001"#, #"-"#,
          #"TLSv1.2"#, #"ECDHE-RSA-AES128-GCM-SHA256"#, #"Hit"#, #"HTTP/2.0"#, #"-"#, #"-"#,
          #"11040"#, #"0.001"#, #"Hit"#, #"text/html"#, #"78"#, #"-"#, #"-"#,
        ].joined(separator: "\t"),
        [
          #"2019-12-04"#, #"21:02:31"#, #"LAX1"#, #"100"#, #"192.0.2.100"#, #"GET"#,
          #"d111.cloudfront.net"#, #"/b"#, #"404"#, #"-"#, #"Mozilla/5.0"#, #"-"#, #"-"#, #"Hit"#,
          #"SOX4x=="#, #"d111.cloudfront.net"#, #"https"#, #"23"#, #"0.001"#, #"-"#, #"TLSv1.2"#,
          #"ECDHE-RSA-AES128-GCM-SHA256"#, #"Hit"#, #"HTTP/2.0"#, #"-"#, #"-"#, #"11040"#,
          #"0.001"#, #"Hit"#, #"text/html"#, #"78"#, #"-"#, #"-"#,
        ].joined(separator: "\t"),
        [
          #"2019-12-04"#, #"21:02:31"#, #"LAX1"#, #"50"#, #"192.0.2.200"#, #"GET"#,
          #"d111.cloudfront.net"#, #"/index.html"#, #"200"#, #"-"#, #"Mozilla/5.0"#, #"-"#, #"-"#,
          #"Hit"#, #"SOX4x=="#, #"d111.cloudfront.net"#, #"https"#, #"23"#, #"0.001"#, #"-"#,
          #"TLSv1.2"#, #"ECDHE-RSA-AES128-GCM-SHA256"#, #"Hit"#, #"HTTP/2.0"#, #"-"#, #"-"#,
          #"11040"#, #"0.001"#, #"Hit"#, #"text/html"#, #"78"#, #"-"#, #"-"#,
        ].joined(separator: "\t"),
      ],
      fetcher: [],
      goaccess: [#"--log-format=CLOUDFRONT"#]
    ),
    FormatCase(
      "iis",
      lines: [
        #"#Software: Microsoft Internet Information Services 10.0"#,
        #"#Version: 1.0"#,
        #"#Date: 2023-10-10 00:00:00"#,
        #"#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status sc-bytes time-taken"#,
        #"2023-10-10 00:00:01 10.0.0.1 GET /a - 443 - 1.2.3.4 Mozilla/5.0 - 200 0 0 100 15"#,
        #"2023-10-10 00:00:02 10.0.0.1 GET /b q=1 443 - 1.2.3.4 Mozilla/5.0 - 404 0 2 50 15"#,
        #"2023-10-10 00:00:03 10.0.0.1 GET /a - 443 - 5.6.7.8 curl/8 - 200 0 0 10 15"#,
      ],
      fetcher: [],
      goaccess: [#"--log-format=W3C"#, #"--date-format=%Y-%m-%d"#, #"--time-format=%H:%M:%S"#],
      comparesBytes: false
    ),
    FormatCase(
      "squid",
      lines: [
        #"1696945536.123     10 10.1.1.1 TCP_MISS/200 500 GET http://example.com/a - HIER_DIRECT/93.184.216.34 text/html"#,
        #"1696945537.123     10 10.1.1.1 TCP_MISS/404 300 GET http://example.com/b - HIER_DIRECT/93.184.216.34 text/html"#,
        #"1696945538.123      5 10.1.1.2 TCP_HIT/200 200 GET http://example.com/a - HIER_NONE/- text/html"#,
      ],
      fetcher: [],
      goaccess: [
        #"--log-format=%x.%^ %~%L %h %^/%s %b %m %U"#, #"--date-format=%s"#, #"--time-format=%s"#,
      ]
    ),
    FormatCase(
      "elb",
      lines: [
        #"2015-05-13T23:39:43.945958Z my-loadbalancer 192.168.131.39:2817 10.0.0.1:80 0.000073 0.001048 0.000057 200 200 0 29 "GET http://www.example.com:80/ HTTP/1.1" "curl/7.38.0" - -"#,
        #"2015-05-13T23:39:44.945958Z my-loadbalancer 192.168.131.39:2817 10.0.0.1:80 0.000073 0.001048 0.000057 404 404 0 10 "GET http://www.example.com:80/b HTTP/1.1" "curl/7.38.0" - -"#,
        #"2015-05-13T23:39:45.945958Z my-loadbalancer 192.168.131.40:2817 10.0.0.1:80 0.000073 0.001048 0.000057 200 200 0 29 "GET https://www.example.com:443/ HTTP/1.1" "Mozilla/5.0" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2"#,
      ],
      fetcher: [],
      goaccess: [
        #"--log-format=%dT%t.%^ %^ %h:%^ %^ %^ %T %^ %s %^ %^ %b "%r" "%u" %^"#,
        #"--date-format=%Y-%m-%d"#, #"--time-format=%T"#,
      ]
    ),
  ]

  @Test(arguments: cases)
  func theTotalsAgreeWithGoAccess(_ format: FormatCase) async throws {
    let goaccessPath = "/usr/bin/goaccess"
    try #require(
      FileManager.default.isExecutableFile(atPath: goaccessPath),
      "install Debian's goaccess (Scripts/install.sh test does)")
    let state = try StateFolder()
    let log = state.url.appendingPathComponent("\(format.name).log")
    try Data((format.lines.joined(separator: "\n") + "\n").utf8).write(to: log)
    let run = try await state.fetcher.start(
      ["analyze", log.path, "--json", "--panels", "bandwidth,clients"] + format.fetcher
    ).wait()
    #expect(run.status == 0, "\(run.standardError)")
    let ours = try #require(
      try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    let goaccess = try await runTool([goaccessPath, log.path, "-o", "json"] + format.goaccess)
    let theirs = try #require(
      try JSONSerialization.jsonObject(with: goaccess.output) as? [String: Any],
      "\(goaccess.errors)")
    let general = try #require(theirs["general"] as? [String: Any])
    let hosts = (theirs["hosts"] as? [String: Any])?["metadata"] as? [String: Any]
    let total = (hosts?["data"] as? [String: Any])?["total"] as? [String: Any]
    #expect(ours["lines"] as? Int == general["total_requests"] as? Int)
    #expect(ours["visits"] as? Int == general["valid_requests"] as? Int)
    #expect(ours["malformedLines"] as? Int == general["failed_requests"] as? Int)
    #expect(ours["clients"] as? Int == total?["value"] as? Int)
    if format.comparesBytes {
      #expect(ours["bytes"] as? Int == general["bandwidth"] as? Int)
    }
    #expect(
      Set(Self.clientRows(ours, bytes: format.comparesBytes))
        == Set(Self.hostRows(theirs, bytes: format.comparesBytes)))
    #expect(ours["lines"] as? Int == format.lines.filter { !$0.hasPrefix("#") }.count)
  }

  /// The rows of fetcher's clients panel in `--json`: `client visits bytes`, or without bytes.
  static func clientRows(_ json: [String: Any], bytes: Bool = true) -> [String] {
    let rows = (json["panels"] as? [String: Any])?["clients"] as? [[String: Any]] ?? []
    return rows.map { row in
      let count = row["count"] as? Int ?? -1
      return "\(row["name"] as? String ?? "?") \(count)"
        + (bytes ? " \(row["bytes"] as? Int ?? -1)" : "")
    }
  }

  /// The rows of GoAccess's hosts panel in its JSON, as `clientRows` writes fetcher's.
  static func hostRows(_ json: [String: Any], bytes: Bool = true) -> [String] {
    let rows = (json["hosts"] as? [String: Any])?["data"] as? [[String: Any]] ?? []
    return rows.map { row in
      let count = (row["hits"] as? [String: Any])?["count"] as? Int ?? -1
      let size = (row["bytes"] as? [String: Any])?["count"] as? Int ?? -1
      return "\(row["data"] as? String ?? "?") \(count)" + (bytes ? " \(size)" : "")
    }
  }
}
