import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `fetcher analyze` on small logs written by the test.
@Suite struct AnalyzeTests {
  private func logFile(_ state: StateFolder, _ lines: [String], name: String = "access.log")
    throws -> URL
  {
    let url = state.url.appendingPathComponent(name)
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
    return url
  }

  private func line(_ client: String, _ page: String) -> String {
    #"\#(client) - - [01/Jul/1995:00:00:01 -0400] "GET \#(page) HTTP/1.0" 200 100"#
  }

  @Test func printsTheRankingAndASummary() async throws {
    let state = try StateFolder()
    let pages = [("1", "/1"), ("1", "/2"), ("2", "/1"), ("1", "/3"), ("2", "/2"), ("2", "/3")]
    let url = try logFile(state, pages.map { line($0.0, $0.1) } + ["garbage"])
    let run = try await state.fetcher.run("analyze", url.path)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.outputLines.count == 2)
    #expect(run.outputLines[1].hasSuffix("/1 → /2 → /3"))
    #expect(run.outputLines[1].contains(" 2 "))
    #expect(
      run.standardError.hasPrefix(
        "7 lines (common), 6 visits, 1 malformed, 2 clients, 1 distinct sequence"))
  }

  /// `--length 1` ranks the pages, as the pages panel counts them, with `--unique-clients`
  /// by how many clients visited each.
  @Test func lengthOneRanksThePages() async throws {
    let state = try StateFolder()
    let pages = [("1", "/1"), ("1", "/2"), ("2", "/1"), ("1", "/1"), ("2", "/3")]
    let url = try logFile(state, pages.map { line($0.0, $0.1) })
    let run = try await state.fetcher.run("analyze", url.path, "--length", "1")
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.outputLines.first?.hasSuffix("  page") == true)
    let pagesShown = run.outputLines.dropFirst().map { String($0.split(separator: " ").last!) }
    #expect(pagesShown == ["/1", "/2", "/3"])
    #expect(run.outputLines[1].contains(" 3 "))
    let unique = try await state.fetcher.run(
      "analyze", url.path, "--length", "1", "--unique-clients", "--csv")
    let rows: [String] = unique.standardOutput.split(separator: "\r\n").map { line in
      let fields = line.split(separator: ",")
      return "\(fields[0]),\(fields[1]),\(fields[3])"
    }
    #expect(rows == ["rank,count,page1", "1,2,/1", "2,1,/2", "3,1,/3"])
  }

  /// On a terminal a long sequence goes on under itself, broken after an arrow, never in the
  /// middle of a page.
  @Test func theTableFitsAnEightyColumnTerminal() async throws {
    let state = try StateFolder()
    let pages = (1...3).map { "/catalog/some-long-category/item-\($0).html" }
    let url = try logFile(state, pages.map { line("h", $0) })
    let session = try TerminalSession(
      home: state.url, arguments: ["analyze", url.path], size: (columns: 80, lines: 24))
    #expect(await session.exitStatus() == 0)
    // The table's lines and the summary's (on standard error, broken between counts).
    let lines = session.screenLines
    #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
    for page in pages {
      #expect(lines.contains { $0.contains(page) }, "\(page) in \(lines)")
    }
  }

  /// `--panels` adds its panels after the sequences: in the table (fitting 80 columns), in the
  /// JSON by key, and in one CSV table with the sequences; a name it does not know is refused.
  @Test func panelsFollowTheSequencesInEveryOutput() async throws {
    let state = try StateFolder()
    let referer = "https://www.search.example/results?q=" + String(repeating: "long-", count: 20)
    let lines = [
      #"1.1.1.1 - - [01/Jul/1995:10:00:01 -0400] "GET /a HTTP/1.0" 200 100 "\#(referer)" "ua""#,
      #"1.1.1.1 - - [01/Jul/1995:10:00:02 -0400] "GET /b HTTP/1.0" 404 50 "-" "ua""#,
      #"2.2.2.2 - - [01/Jul/1995:11:00:03 -0400] "GET /a HTTP/1.0" 304 - "-" "ua""#,
    ]
    let url = try logFile(state, lines)
    let table = try await state.fetcher.run("analyze", "--panels", "all", url.path)
    #expect(table.status == 0, "\(table.standardError)")
    for title in ["Pages", "Status codes", "Pages not found (404)", "Referring sites", "Clients"] {
      #expect(table.outputLines.contains(title), "\(title)")
    }
    #expect(table.outputLines.contains { $0.hasSuffix("search.example") })
    #expect(table.outputLines.contains("All visits: 150 B (150 bytes)"))

    let json = try await state.fetcher.run(
      "analyze", "--panels", "status,hours", "--json", url.path)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    let panels = try #require(object["panels"] as? [String: [[String: Any]]])
    #expect(Set(panels.keys) == ["status", "status-classes", "hours", "days"])
    #expect(panels["status"]?.map { $0["name"] as? String } == ["200", "304", "404"])
    #expect(panels["hours"]?[10]["count"] as? Int == 2)

    let csv = try await state.fetcher.run("analyze", "--panels", "pages", "--csv", url.path)
    let rows = csv.standardOutput.components(separatedBy: "\r\n")
    #expect(rows.first == "panel,rank,name,count,share,bytes,drop_off,median_seconds")
    #expect(rows.contains("pages,1,/a,2,0.6666666666666666,,,"))

    let unknown = try await state.fetcher.run("analyze", "--panels", "pages,visitors", url.path)
    #expect(unknown.status == 64)
    #expect(unknown.standardError.contains("unknown panel 'visitors'"))

    let session = try TerminalSession(
      home: state.url, arguments: ["analyze", "--panels", "all", url.path],
      size: (columns: 80, lines: 200))
    #expect(await session.exitStatus() == 0)
    let screen = session.screenLines
    #expect(screen.allSatisfy { $0.count <= 80 }, "\(screen.filter { $0.count > 80 })")
    #expect(screen.contains { $0.contains("https://www.search.exa") && $0.contains("…") })
  }

  /// `--funnel` counts the paths that reached each step in order: in the table (80 columns),
  /// the JSON, the CSV and the HTML; split into parts (`--partial-out`, `--merge`) and through
  /// `--state`, it says what one pass says.
  @Test func aFunnelCountsThePathsThatReachEachStep() async throws {
    let state = try StateFolder()
    let visits: [(String, String, Int)] = [
      ("1.1.1.1", "/", 0), ("1.1.1.1", "/about", 10), ("1.1.1.1", "/products/1", 70),
      ("2.2.2.2", "/", 30), ("1.1.1.1", "/cart", 190), ("2.2.2.2", "/products/7", 150),
      ("3.3.3.3", "/", 40), ("1.1.1.1", "/checkout", 250), ("2.2.2.2", "/", 9000),
    ]
    let lines = visits.map { client, page, seconds in
      let time = String(format: "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
      return #"\#(client) - - [01/Jul/1995:\#(time) +0000] "GET \#(page) HTTP/1.0" 200 10 "-" "ua""#
    }
    let url = try logFile(state, lines)
    let funnel = ["--funnel", "/,/products/*,/cart,/checkout", "--session-gap", "30m"]
    let table = try await state.fetcher.run(["analyze", url.path] + funnel)
    #expect(table.status == 0, "\(table.standardError)")
    let start = try #require(table.outputLines.firstIndex { $0.hasPrefix("Funnel (4 paths") })
    #expect(
      table.outputLines[(start + 2)...].prefix(4).map {
        $0.split(separator: " ", omittingEmptySubsequences: true).filter { !$0.hasPrefix("#") }
          .joined(separator: " ")
      } == [
        "1 4 100.00% - - /", "2 2 50.00% 2 1m 35s /products/*", "3 1 25.00% 1 2m 00s /cart",
        "4 1 25.00% 0 1m 00s /checkout",
      ])

    let json = try await state.fetcher.run(["analyze", url.path, "--json"] + funnel)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    let steps = try #require((object["funnel"] as? [String: Any])?["steps"] as? [[String: Any]])
    #expect(steps.map { $0["paths"] as? Int } == [4, 2, 1, 1])
    #expect(steps.map { $0["medianSeconds"] as? Double } == [nil, 95, 120, 60])

    let csv = try await state.fetcher.run(["analyze", url.path, "--csv"] + funnel)
    #expect(
      csv.standardOutput.components(separatedBy: "\r\n").contains(
        "funnel,2,/products/*,2,0.5,,2,95.0"))

    // Two parts, each client's path cut between them, merged; and the same through --state.
    let (first, second) = (lines[..<4].map { $0 }, lines[4...].map { $0 })
    var partials: [String] = []
    for (index, part) in [first, second].enumerated() {
      let log = try logFile(state, part, name: "part\(index).log")
      let partial = state.url.appendingPathComponent("\(index).partial").path
      let run = try await state.fetcher.run(
        ["analyze", log.path, "--partial-out", partial] + funnel)
      #expect(run.status == 0, "\(run.standardError)")
      partials.append(partial)
    }
    let merged = try await state.fetcher.run(["analyze", "--json", "--merge"] + partials)
    #expect(merged.standardOutput == json.standardOutput)
    let growing = try logFile(state, first, name: "growing.log")
    let stateFile = state.url.appendingPathComponent("state").path
    _ = try await state.fetcher.run(["analyze", growing.path, "--state", stateFile] + funnel)
    try Data((first + second).map { $0 + "\n" }.joined().utf8).write(to: growing)
    let resumed = try await state.fetcher.run(
      ["analyze", growing.path, "--state", stateFile, "--json"] + funnel)
    #expect(resumed.status == 0, "\(resumed.standardError)")
    let onePass = try JSONSerialization.jsonObject(with: Data(resumed.standardOutput.utf8))
    #expect(
      (onePass as? [String: Any])?["funnel"] as? NSDictionary == object["funnel"] as? NSDictionary)

    let html = state.url.appendingPathComponent("report.html").path
    let report = try await state.fetcher.run(["analyze", url.path, "--html", html] + funnel)
    #expect(report.status == 0)
    let page = try String(contentsOfFile: html, encoding: .utf8)
    #expect(page.contains("<h2>Funnel</h2>") && page.contains("2 (50.00%)"))

    let one = try await state.fetcher.run("analyze", url.path, "--funnel", "/")
    #expect(one.status == 64)
    #expect(one.standardError.contains("a funnel has 2 to 16 steps, not 1"))

    let session = try TerminalSession(
      home: state.url,
      arguments: ["analyze", url.path, "--funnel", "/," + String(repeating: "/long", count: 30)],
      size: (columns: 80, lines: 60))
    #expect(await session.exitStatus() == 0)
    #expect(session.screenLines.allSatisfy { $0.count <= 80 })
  }

  /// A filter says how many lines it left out, in the summary and in the JSON.
  @Test func filtersSayHowManyLinesTheyLeftOut() async throws {
    let state = try StateFolder()
    let lines =
      ["/a", "/b", "/c"].map { line("h", $0) } + [
        line("h", "/x").replacingOccurrences(of: " 200 ", with: " 404 ")
      ]
    let url = try logFile(state, lines)
    let run = try await state.fetcher.run("analyze", url.path, "--status", "2xx")
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      run.standardError.hasPrefix(
        "4 lines (common), 3 visits, 0 malformed, 1 left out by filters, 1 client"))
    let json = try await state.fetcher.run("analyze", url.path, "--status", "2xx", "--json")
    let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8))
    #expect((object as? [String: Any])?["filteredLines"] as? Int == 1)
  }

  @Test func aMistypedCommandIsNamedWithTheClosestOne() async throws {
    let state = try StateFolder()
    let run = try await state.fetcher.run("analyse", "access.log")
    #expect(run.status == 64)
    #expect(run.standardOutput.isEmpty)
    #expect(
      run.standardError.contains(
        "Error: 'analyse' is not a fetcher command; did you mean 'analyze'?"))
  }

  @Test func jsonAndCSV() async throws {
    let state = try StateFolder()
    let url = try logFile(state, ["/a", "/b", "/c"].map { line("h", $0) })
    let json = try await state.fetcher.run("analyze", url.path, "--json")
    let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8))
    let sequences = (object as? [String: Any])?["sequences"] as? [[String: Any]]
    #expect(sequences?.first?["pages"] as? [String] == ["/a", "/b", "/c"])
    let csv = try await state.fetcher.run("analyze", url.path, "--csv")
    #expect(csv.standardOutput.hasSuffix("1,1,1.0,/a,/b,/c\r\n"))
  }

  /// The issue's lines, after nginx's combined format: `-` for a connection that sent no
  /// request, and scanners' junk. GoAccess counts each as a valid request with its bytes, and
  /// its host; so do we (visits, status, bandwidth, clients, and the clients panel beside
  /// GoAccess's hosts panel), and say how many named no page. A log of only such a line (lnav's
  /// logfile_access_log.1) is a combined log.
  @Test func requestsThatNameNoPageAreVisitsAsGoAccessCountsThem() async throws {
    let state = try StateFolder()
    let url = try logFile(
      state,
      [
        #"1.2.3.4 - - [10/Oct/2023:13:55:36 +0000] "-" 400 0 "-" "-""#,
        #"1.2.3.4 - - [10/Oct/2023:13:55:37 +0000] "GET /x Win 7 Professional HTTP/1.1" 400 157 "-" "-""#,
        #"1.2.3.4 - - [10/Oct/2023:13:55:38 +0000] "\x16\x03\x01\x00\xCA" 400 157 "-" "-""#,
        #"5.6.7.8 - - [10/Oct/2023:14:01:00 +0000] "GET / HTTP/1.1" 200 612 "-" "curl/8.0""#,
        #"5.6.7.8 - - [10/Oct/2023:14:01:01 +0000] "GET /a HTTP/1.1" 404 100 "-" "curl/8.0""#,
        #"5.6.7.8 - - [10/Oct/2023:14:01:02 +0000] "\x16\x03\x01" 400 166 "-" "-""#,
      ])
    let ours = try await state.fetcher.run(
      "analyze", url.path, "--json", "--panels", "pages,status,bandwidth,clients")
    #expect(ours.status == 0, "\(ours.standardError)")
    let result = try #require(
      try JSONSerialization.jsonObject(with: Data(ours.standardOutput.utf8)) as? [String: Any])
    let goaccess = try await runTool([
      "/usr/bin/goaccess", url.path, "--log-format=COMBINED", "-o", "json",
    ])
    let theirs = try #require(
      try JSONSerialization.jsonObject(with: goaccess.output) as? [String: Any])
    let general = try #require(theirs["general"] as? [String: Any])
    #expect(result["visits"] as? Int == general["valid_requests"] as? Int)
    #expect(result["malformedLines"] as? Int == general["failed_requests"] as? Int)
    #expect(result["bytes"] as? Int == general["bandwidth"] as? Int)
    #expect(result["unreadableRequests"] as? Int == 4)
    // Every client, as GoAccess's hosts: 1.2.3.4 named no page.
    let hosts = (theirs["hosts"] as? [String: Any])?["metadata"] as? [String: Any]
    let total = (hosts?["data"] as? [String: Any])?["total"] as? [String: Any]
    #expect(result["clients"] as? Int == total?["value"] as? Int)
    #expect(result["clients"] as? Int == 2)
    #expect(result["clientsWithoutPage"] as? Int == 1)
    let panels = result["panels"] as? [String: Any]
    let pages = panels?["pages"] as? [[String: Any]]
    #expect(pages?.compactMap { $0["name"] as? String } == ["/", "/a"])
    // Each host with all its requests and bytes, as GoAccess's hosts panel lists them.
    let clients = GoAccessFormatsTests.clientRows(result)
    #expect(clients == ["1.2.3.4 3 314", "5.6.7.8 3 878"])
    #expect(Set(clients) == Set(GoAccessFormatsTests.hostRows(theirs)))
    #expect(ours.standardError.contains("6 visits, 4 with an unreadable request, 0 malformed"))
    #expect(ours.standardError.contains("2 clients (1 with no page)"))

    let lone = try logFile(
      state, [#"192.168.1.1 - - [27/Nov/2026:10:00:00 +0100] "-" 400 0 "-" "-""#], name: "one.log")
    let one = try await state.fetcher.run("analyze", lone.path)
    #expect(one.status == 0, "\(one.standardError)")
    #expect(one.standardError.contains("1 line (combined), 1 visit, 1 with an unreadable request"))
  }

  @Test func csvPagesThatASpreadsheetWouldRunAreQuotedAsText() async throws {
    let state = try StateFolder()
    // A JSON log's request_uri is taken as it is (a request line's target must be a path).
    let url = try logFile(
      state,
      ["=1+1", "+cmd|'/Ccalc'!A0", "@SUM(A1)"].map {
        #"{"remote_addr":"h","request_uri":"\#($0)","status":200}"#
      })
    let csv = try await state.fetcher.run("analyze", url.path, "--csv")
    #expect(
      csv.standardOutput.hasSuffix(#"1,1,1.0,"'=1+1","'+cmd|'/Ccalc'!A0","'@SUM(A1)""# + "\r\n"))
  }

  @Test func readsStandardInput() async throws {
    let state = try StateFolder()
    let url = try logFile(state, ["/a", "/b", "/c", "/d"].map { line("h", $0) })
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = [
      "-c", "'\(Paths.fetcher.path)' analyze - --length 2 --csv < '\(url.path)'",
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = await onOwnThread { output.fileHandleForReading.readDataToEndOfFile() }
    #expect(String(decoding: data, as: UTF8.self).split(separator: "\r\n").count == 4)
  }

  /// The partial result of `analyze` with `arguments`, written to NAME.partial in `state`.
  private func partial(_ state: StateFolder, _ name: String, of arguments: [String])
    async throws -> String
  {
    let partial = state.url.appendingPathComponent("\(name).partial").path
    let run = try await state.fetcher.run(["analyze"] + arguments + ["--partial-out", partial])
    #expect(run.status == 0, "\(run.standardError)")
    // No warning that a change between two reads could go unnoticed: nginx names the log's
    // version.
    #expect(!run.standardError.contains("warning"), "\(run.standardError)")
    return partial
  }

  /// Expects `partials` merged in order to print (as CSV, every sequence) what one pass over
  /// `log` prints, and returns that pass.
  @discardableResult
  private func expectMerged(_ partials: [String], printAsOnePassOf log: URL, _ state: StateFolder)
    async throws -> FetcherRun
  {
    let merge = try await state.fetcher.start(
      ["analyze", "--csv", "--top", "0", "--merge"] + partials
    ).wait()
    let one = try await state.fetcher.run("analyze", log.path, "--csv", "--top", "0")
    #expect(merge.status == 0, "\(merge.standardError)")
    #expect(merge.standardOutput == one.standardOutput)
    return one
  }

  @Test func partialResultsOfShardsMergeToOnePass() async throws {
    let state = try StateFolder()
    let clients = ["a", "b", "c"]
    let lines = (0..<60).map { line(clients[$0 % 3], "/p\(($0 * 7) % 5)") }
    let whole = try logFile(state, lines)
    var partials: [String] = []
    for (index, start) in stride(from: 0, to: 60, by: 13).enumerated() {
      let shard = state.url.appendingPathComponent("shard\(index).log")
      try Data((lines[start..<min(60, start + 13)].joined(separator: "\n") + "\n").utf8)
        .write(to: shard)
      partials.append(try await partial(state, "shard\(index)", of: [shard.path]))
    }
    let one = try await expectMerged(partials, printAsOnePassOf: whole, state)
    // Merged in a tree: neighbours into partials, then those.
    let left = state.url.appendingPathComponent("left.partial").path
    let right = state.url.appendingPathComponent("right.partial").path
    _ = try await state.fetcher.start(
      ["analyze", "--partial-out", left, "--merge"] + partials.prefix(2)
    ).wait()
    _ = try await state.fetcher.start(
      ["analyze", "--partial-out", right, "--merge"] + partials.dropFirst(2)
    ).wait()
    let tree = try await state.fetcher.run(
      "analyze", "--csv", "--top", "0", "--merge", left, right)
    #expect(tree.standardOutput == one.standardOutput, "\(tree.standardError)")
  }

  /// `--byte-range`: splits of one file, cut anywhere (inside lines, two of one size),
  /// analysed apart and merged in order, print what the whole file prints; out of order, they
  /// are refused.
  @Test func byteRangesOfAFileMergeToTheWholeFile() async throws {
    let state = try StateFolder()
    let clients = ["a", "b", "c"]
    let whole = try logFile(state, (0..<60).map { line(clients[$0 % 3], "/p\(($0 * 7) % 5)") })
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: whole.path)[.size] as? Int)
    let cuts = [0, 100, 200, 1001, size / 2, size]
    var partials: [String] = []
    for (start, end) in zip(cuts, cuts.dropFirst()) {
      partials.append(
        try await partial(state, "\(start)", of: [whole.path, "--byte-range", "\(start)-\(end)"]))
    }
    try await expectMerged(partials, printAsOnePassOf: whole, state)
    // Out of order, a client's visits would join in the wrong order.
    let reversed = try await state.fetcher.run(["analyze", "--merge"] + partials.reversed())
    #expect(
      reversed.status == 1
        && reversed.standardError.hasSuffix(
          "give the splits of a file in the order of their byte ranges\n"),
      "\(reversed.standardError)")
    for refused in [["-", "--byte-range", "0-9"], [whole.path, "--byte-range", "9-0"]] {
      let run = try await state.fetcher.run(["analyze"] + refused)
      #expect(run.status == 64, "\(run.standardError)")
    }
  }

  /// `--byte-range` of an http(s) URL reads its split by Range requests (from nginx): the
  /// splits merge to what the whole log gives.
  @Test func byteRangesOfALogOnAServerMergeToTheWholeLog() async throws {
    let state = try StateFolder()
    let clients = ["a", "b", "c", "d"]
    let lines = (0..<80).map { line(clients[$0 % 4], "/p\(($0 * 3) % 7)") }
    let whole = try logFile(state, lines)
    let text = try Data(contentsOf: whole)
    let nginx = try NginxServer(files: ["access.log": text])
    let cuts = [0, 333, text.count / 2, text.count]
    var partials: [String] = []
    for (start, end) in zip(cuts, cuts.dropFirst()) {
      let url = "\(nginx.rootURL)/access.log"
      partials.append(
        try await partial(state, "\(start)", of: [url, "--byte-range", "\(start)-\(end)"]))
    }
    try await expectMerged(partials, printAsOnePassOf: whole, state)
    let missing = try await state.fetcher.run(
      "analyze", "\(nginx.rootURL)/none.log", "--byte-range", "0-10")
    #expect(missing.status == 1)
    #expect(missing.standardError.contains("the server answered HTTP 404"))
  }

  /// A log rewritten between two reads of one split is an error, not a split of two files:
  /// server.py gives the file a new ETag after its first answer, and If-Range gets it whole.
  @Test func aLogThatChangesWhileItIsReadIsAnError() async throws {
    let state = try StateFolder()
    let server = try TestServer()
    let changed = try await state.fetcher.run(
      "analyze", "\(server.rootURL)/files/access.log?size=5000&change_etag_after=1",
      "--byte-range", "0-2000")
    #expect(changed.status == 1)
    #expect(changed.standardError.contains("the log changed while it was read"))
    #expect(changed.standardOutput.isEmpty)
  }

  /// `--byte-range` of a WebHDFS URL reads its split by `op=OPEN&offset=&length=` (from a
  /// stand-in name node that redirects to a data node and ignores Range headers, as WebHDFS
  /// does): the splits merge to what the whole file, fetched by URL, gives.
  @Test func byteRangesOfAFileOnWebHDFSMergeToTheWholeFile() async throws {
    let state = try StateFolder()
    let server = try TestServer(script: Paths.webHDFS)
    let url = "\(server.rootURL)/webhdfs/v1/logs/access.log?op=OPEN&user.name=test"
    let cuts = [0, 1, 77_777, 130_000, 1 << 40]
    var partials: [String] = []
    for (start, end) in zip(cuts, cuts.dropFirst()) {
      partials.append(
        try await partial(state, "\(start)", of: [url, "--byte-range", "\(start)-\(end)"]))
    }
    let merge = try await state.fetcher.run(
      ["analyze", "--csv", "--top", "0", "--merge"] + partials)
    let one = try await state.fetcher.run("analyze", url, "--csv", "--top", "0")
    #expect(merge.status == 0 && one.status == 0, "\(merge.standardError)\(one.standardError)")
    #expect(merge.standardOutput == one.standardOutput)
    #expect(one.standardError.contains("3000 lines (combined)"))
    let missing = try await state.fetcher.run(
      "analyze", "\(server.rootURL)/webhdfs/v1/none.log", "--byte-range", "0-10")
    #expect(missing.status == 1)
    #expect(
      missing.standardError.contains(
        "WebHDFS answered HTTP 404 to GETFILESTATUS: File does not exist: /none.log"))
  }

  @Test func theSameLinesAreNeverMergedTwice() async throws {
    let state = try StateFolder()
    let log = try logFile(state, ["/a", "/b", "/c"].map { line("h", $0) })
    let first = state.url.appendingPathComponent("first.partial").path
    let second = state.url.appendingPathComponent("second.partial").path
    for partial in [first, second] {
      let run = try await state.fetcher.run("analyze", log.path, "--partial-out", partial)
      #expect(run.status == 0, "\(run.standardError)")
    }
    let twice = try await state.fetcher.run("analyze", "--merge", first, first)
    #expect(twice.status == 1)
    #expect(twice.standardError.contains("are the same partial result"))
    #expect(twice.standardOutput.isEmpty)
    let sameLog = try await state.fetcher.run("analyze", "--merge", first, second)
    #expect(sameLog.status == 1)
    #expect(sameLog.standardError.contains("partial results of the same input, \(log.path)"))
  }

  @Test func readsAFIFOAsAStream() async throws {
    let state = try StateFolder()
    let fifo = state.url.appendingPathComponent("log.fifo")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    let running = try state.fetcher.start(["analyze", fifo.path])
    let text = ["/a", "/b", "/c"].map { line("h", $0) }.joined(separator: "\n") + "\n"
    // Opening for writing waits until fetcher opens it for reading.
    await onOwnThread {
      let writer = FileHandle(forWritingAtPath: fifo.path)
      writer?.write(Data(text.utf8))
      try? writer?.close()
    }
    let run = await running.wait()
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.outputLines.last?.hasSuffix("/a → /b → /c") == true)

    let merge = try await state.fetcher.run("analyze", "--merge", "/dev/zero")
    #expect(merge.status == 1)
    #expect(merge.standardError.contains("/dev/zero: not a regular file"))
  }

  @Test func aDamagedPartialIsAClearError() async throws {
    let state = try StateFolder()
    let file = state.url.appendingPathComponent("bad.partial")
    try Data("not a partial".utf8).write(to: file)
    let run = try await state.fetcher.run("analyze", "--merge", file.path)
    #expect(run.status == 1)
    #expect(run.standardError == "fetcher: \(file.path): not a fetcher partial result\n")
  }

  @Test func readsGzipFiles() async throws {
    let state = try StateFolder()
    let url = try logFile(state, ["/a", "/b", "/c"].map { line("h", $0) })
    let gzip = Process()
    gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
    gzip.arguments = [url.path]
    try gzip.run()
    await onOwnThread { gzip.waitUntilExit() }
    let run = try await state.fetcher.run("analyze", url.path + ".gz", "--csv")
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.hasSuffix("1,1,1.0,/a,/b,/c\r\n"))

    try Data("not gzip".utf8).write(to: state.url.appendingPathComponent("bad.gz"))
    let bad = try await state.fetcher.run(
      "analyze", state.url.appendingPathComponent("bad.gz").path)
    // Not gzip by its first bytes, so read as text, and no line of it reads.
    #expect(bad.status == 1)
    #expect(bad.standardError.contains("no line of the input reads"))
  }

  @Test func downloadsAURLIntoTheCacheThenAnalysesIt() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let url = "\(server.rootURL)/logs/sample.log?lines=1500"
    let run = try await state.fetcher.run("analyze", url, "--csv", "--top", "1")
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.hasSuffix(",/1,/2,/3\r\n"))
    #expect(run.standardError.contains(" done "))
    let cache = state.url.appendingPathComponent("cache/logs")
    let cached = try FileManager.default.contentsOfDirectory(atPath: cache.path)
    #expect(cached.count == 1 && cached[0].hasSuffix("-sample.log"))
    // A cached log is the command's own download, kept apart from the user's.
    #expect(try await state.fetcher.run("downloads", "list").standardOutput.isEmpty)

    // The same URL again: the server says it has not changed, and the copy is used.
    let again = try await state.fetcher.run("analyze", url, "--csv", "--top", "1")
    #expect(again.standardError.contains("done, unchanged"))
    #expect(again.standardOutput == run.standardOutput)
    let refreshed = try await state.fetcher.run("analyze", url, "--refresh", "--top", "1")
    #expect(refreshed.status == 0, "\(refreshed.standardError)")
    #expect(!refreshed.standardError.contains("unchanged"))

    // Another URL with the same file name is a log of its own.
    let other = try await state.fetcher.run(
      "analyze", "\(server.rootURL)/logs/sample.log?lines=30", "--csv", "--top", "1")
    #expect(other.status == 0, "\(other.standardError)")
    #expect(other.standardOutput.hasSuffix("1,10,0.5,/1,/2,/3\r\n"), "\(other.standardOutput)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).count == 2)

    let missing = try await state.fetcher.run("analyze", "\(server.rootURL)/faults/status/404")
    #expect(missing.status == 1)
    #expect(missing.standardError.contains("the server answered HTTP 404"))
  }

  @Test func aMissingFileIsAClearError() async throws {
    let state = try StateFolder()
    let run = try await state.fetcher.run("analyze", "/nonexistent/access.log")
    #expect(run.status == 1)
    #expect(run.standardError == "fetcher: /nonexistent/access.log: no such file\n")
  }

  @Test func aNegativeNumberIsRefusedByName() async throws {
    let state = try StateFolder()
    let url = try logFile(state, ["/a", "/b", "/c"].map { line("h", $0) })
    let top = try await state.fetcher.run("analyze", url.path, "--top", "-1")
    #expect(top.status == 64)
    #expect(top.standardError.hasPrefix("Error: --top must be 0 or more"))
    let length = try await state.fetcher.run("analyze", url.path, "--length", "-3")
    #expect(length.status == 64)
    #expect(length.standardError.hasPrefix("Error: --length must be"), "\(length.standardError)")
  }

  /// Runs `command` with `sh -c`, the fetcher binary as `$FETCHER`; returns its status and
  /// standard output.
  private func shell(_ command: String) async throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.environment = ProcessInfo.processInfo.environment.merging(
      ["FETCHER": Paths.fetcher.path]) { $1 }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = await onOwnThread { output.fileHandleForReading.readDataToEndOfFile() }
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test func severalInputsReadAsTheirConcatenationGzipOrNot() async throws {
    let state = try StateFolder()
    let pages = (0..<300).map { ("10.0.0.\($0 % 7)", "/p\($0 % 5)") }
    let parts = [pages[..<100], pages[100..<200], pages[200...]].map { $0.map { line($0.0, $0.1) } }
    let folder = state.url.path
    for (index, part) in parts.enumerated() {
      try Data((part.joined(separator: "\n") + "\n").utf8).write(
        to: state.url.appendingPathComponent("part\(index).log"))
    }
    let whole = try await shell(
      "cd '\(folder)' && cat part0.log part1.log part2.log > whole.log && gzip -k part1.log && "
        + "\"$FETCHER\" analyze whole.log --csv --top 0")
    #expect(whole.status == 0)
    let several = try await shell(
      "cd '\(folder)' && \"$FETCHER\" analyze part0.log part1.log.gz part2.log --csv --top 0")
    #expect(several.status == 0)
    #expect(several.output == whole.output)
    #expect(several.output.split(separator: "\r\n").count > 5)
    // gzip on standard input is known by its first bytes.
    let piped = try await shell(
      "cd '\(folder)' && gzip -c whole.log | \"$FETCHER\" analyze - --csv --top 0")
    #expect(piped.status == 0)
    #expect(piped.output == whole.output)
  }

  /// An error log, a syslog, a feed and random bytes hold no access-log line: no visit, no
  /// client, exit 1 (GoAccess: 0 valid, exit 1), whatever the options.
  @Test func filesThatAreNoAccessLogHaveNoVisits() async throws {
    let state = try StateFolder()
    // Printable ASCII.
    let random = (0..<UInt64(2000)).map { line in
      String(
        decoding: (0..<UInt64(60)).map { 32 + ScrambledBytes.byte(line * 60 + $0) % 95 },
        as: UTF8.self)
    }
    for (name, lines) in [
      (
        "error.log",
        [
          #"2024/05/01 12:00:00 [error] 7#0: *1 open() "/x" failed, client: 1.2.3.4, request: "GET /x HTTP/1.1", host: "h""#
        ]
      ),
      ("syslog", [#"May  1 12:00:00 host app[123]: GET /health 200 "checker" "x y""#]),
      ("feed.xml", [#"<entry><title>a "b c" d</title></entry>"#]),
      ("random.txt", random.filter { !$0.hasPrefix("#") }),
    ] {
      let url = state.url.appendingPathComponent(name)
      try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
      for options in [[], ["--since", "2000-01-01"]] {
        let run = try await state.fetcher.start(["analyze", url.path] + options).wait()
        #expect(run.status == 1, "\(name) \(options): \(run.standardError)")
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.contains("no line of the input reads"))
      }
    }
  }

  @Test func noLineThatReadsIsAnErrorThatSuggestsAFormat() async throws {
    let state = try StateFolder()
    let url = try logFile(
      state, ["#Version: 1.0", "2024-01-01 10:00:00 GET /a 200", "2024-01-01 10:00:01 GET /b 200"])
    let run = try await state.fetcher.run("analyze", url.path, "--log-format", "combined")
    #expect(run.status == 1)
    #expect(run.standardOutput.isEmpty)
    // The `#` line is passed over as a comment; the first line that does not read is named.
    #expect(run.standardError.contains("the first is: 2024-01-01 10:00:00 GET /a 200"))
    #expect(run.standardError.contains("--log-format"))
    let some = try logFile(state, [line("a", "/1"), "not a log line", line("a", "/2")])
    let partly = try await state.fetcher.run("analyze", some.path)
    #expect(partly.status == 0)
    #expect(partly.standardError.contains("first malformed line: not a log line"))
  }

  @Test func sessionsFiltersAndEntryPagesFromTheCommandLine() async throws {
    let state = try StateFolder()
    func visit(_ client: String, _ page: String, _ time: String, _ status: Int, _ agent: String)
      -> String
    {
      #"{"remote_addr":"\#(client)","time_iso8601":"2024-05-01T\#(time)Z","request":"GET \#(page) HTTP/1.1","status":\#(status),"http_user_agent":"\#(agent)"}"#
    }
    let url = try logFile(
      state,
      [
        visit("a", "/home", "10:00:00", 200, "Firefox"),
        visit("a", "/x", "10:01:00", 200, "Firefox"),
        visit("a", "/gone", "10:01:30", 404, "Firefox"),
        visit("b", "/home", "10:02:00", 200, "Googlebot"),
        visit("a", "/docs", "12:00:00", 200, "Firefox"),
        visit("a", "/x", "12:00:10", 200, "Firefox"),
      ])
    let run = try await state.fetcher.run(
      "analyze", url.path, "--session-gap", "30m", "--status", "2xx", "--exclude-bots",
      "--entry", "--csv")
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput == "rank,count,share,page1\r\n1,1,0.5,/docs\r\n2,1,0.5,/home\r\n")
    let sequences = try await state.fetcher.run(
      "analyze", url.path, "--length", "2", "--session-gap", "30m", "--csv")
    #expect(sequences.standardOutput.contains("/x,/gone"))
    #expect(!sequences.standardOutput.contains("/gone,/docs"))
    let refused = try await state.fetcher.run(
      "analyze", url.path, "--log-format", "common", "--exclude-bots")
    #expect(refused.status == 1)
    #expect(refused.standardError.contains("no user agent"))
  }

  @Test func partialsOfOtherFiltersDoNotMerge() async throws {
    let state = try StateFolder()
    let url = try logFile(state, ["/a", "/b", "/c"].map { line("h", $0) })
    let first = state.url.appendingPathComponent("1.partial").path
    let second = state.url.appendingPathComponent("2.partial").path
    _ = try await state.fetcher.run("analyze", url.path, "--partial-out", first)
    _ = try await state.fetcher.run(
      "analyze", url.path, "--partial-out", second, "--status", "200")
    let merge = try await state.fetcher.run("analyze", "--merge", first, second)
    #expect(merge.status == 1)
    #expect(merge.standardError.contains("other options"))
  }

  @Test func anHTMLReportOfMergedPartials() async throws {
    let state = try StateFolder()
    let url = try logFile(state, ["/a", "/b", "/c", "/a", "/b"].map { line("h", $0) })
    let partial = state.url.appendingPathComponent("1.partial").path
    _ = try await state.fetcher.run("analyze", url.path, "--partial-out", partial)
    let run = try await state.fetcher.run("analyze", "--merge", partial, "--html", "-")
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.hasPrefix("<!DOCTYPE html>"))
    #expect(run.standardOutput.contains("Flow of the top 3 sequences"))
    let refused = try await state.fetcher.run("analyze", url.path, "--html", "-", "--json")
    #expect(refused.status == 64)
  }
}

/// A common-format line of client 10.0.0.`client` visiting `/p<page>`.
private func line(_ client: Int, _ page: Int) -> String {
  #"10.0.0.\#(client) - - [01/Jul/1995:00:00:01 -0400] "GET /p\#(page) HTTP/1.0" 200 100"# + "\n"
}

/// `fetcher analyze --state`, as cron runs it: each run reads what the log gained, also after
/// logrotate moved it, and prints the result of every line so far.
@Suite struct AnalyzeStateTests {
  /// With the panels too, which merge through the state as the sequences do.
  @Test(arguments: [[], ["--panels", "all"]])
  func scheduledRunsAcrossRotationsGiveTheOnePassResult(panels: [String]) async throws {
    let folder = try StateFolder()
    let log = folder.url.appendingPathComponent("access.log")
    let state = folder.url.appendingPathComponent("analyze.state").path
    let lines = (0..<300).map { line($0 % 7, ($0 * 5 + $0 / 7) % 4) }
    let whole = folder.url.appendingPathComponent("whole.log")
    try Data(lines.joined().utf8).write(to: whole)
    func append(_ range: Range<Int>) throws {
      if !FileManager.default.fileExists(atPath: log.path) {
        try #require(FileManager.default.createFile(atPath: log.path, contents: nil))
      }
      let handle = try FileHandle(forWritingTo: log)
      try handle.seekToEnd()
      try handle.write(contentsOf: Data(lines[range].joined().utf8))
      try handle.close()
    }
    func run() async throws -> FetcherRun {
      let run = try await folder.fetcher.start(
        ["analyze", "--state", state, log.path, "--json"] + panels
      ).wait()
      #expect(run.status == 0, "\(run.standardError)")
      return run
    }
    try append(0..<100)
    _ = try await run()
    // logrotate: renamed, then compressed; a new log.
    try append(100..<150)
    try FileManager.default.moveItem(atPath: log.path, toPath: log.path + ".1")
    try append(150..<200)
    _ = try await run()
    try append(200..<250)
    try FileManager.default.removeItem(atPath: log.path + ".1")
    try FileManager.default.moveItem(atPath: log.path, toPath: log.path + ".1")
    #expect(try await runTool(["/bin/gzip", log.path + ".1"]).status == 0)
    try append(250..<300)
    let last = try await run()
    let onePass = try await folder.fetcher.start(["analyze", whole.path, "--json"] + panels).wait()
    #expect(last.standardOutput == onePass.standardOutput)
    #expect(last.standardOutput.contains("\"panels\"") == !panels.isEmpty)
    #expect(last.standardError.hasPrefix("300 lines"))

    // A state made with other options, or damaged, is refused and kept.
    let other = try await folder.fetcher.run("analyze", "--state", state, log.path, "--length", "2")
    #expect(other.status == 1)
    #expect(other.standardError.contains("was written with other options"))
    let saved = try Data(contentsOf: URL(fileURLWithPath: state))
    var damaged = saved
    damaged[20] = UInt8(ascii: "#")
    try damaged.write(to: URL(fileURLWithPath: state))
    let refused = try await folder.fetcher.run("analyze", "--state", state, log.path)
    #expect(refused.status == 1)
    #expect(refused.standardError.contains("cannot be read"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == damaged)
  }
}

extension AnalyzeStateTests {
  /// A run killed while it writes its state (its temporary file is there) leaves a whole
  /// state, and the next run counts every line once.
  @Test func aRunKilledWhileWritingTheStateLeavesTheOneBefore() async throws {
    let folder = try StateFolder()
    let log = folder.url.appendingPathComponent("access.log")
    let statePath = folder.url.appendingPathComponent("analyze.state").path
    // Many clients and pages, so that the state takes a while to write.
    let lines = (0..<120_000).map { index in
      "10.\(index % 251).\(index % 241).\(index % 239) - - [01/Jul/1995:00:00:01 -0400] "
        + "\"GET /p\(index % 997) HTTP/1.0\" 200 100\n"
    }
    try Data(lines[..<60_000].joined().utf8).write(to: log)
    let first = try await folder.fetcher.run("analyze", "--state", statePath, log.path)
    #expect(first.status == 0, "\(first.standardError)")
    let before = try Data(contentsOf: URL(fileURLWithPath: statePath))
    let handle = try FileHandle(forWritingTo: log)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(lines[60_000...].joined().utf8))
    try handle.close()

    let known = Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
    let running = try folder.fetcher.start(["analyze", "--state", statePath, log.path])
    let watched = folder.url.path
    let caught = await onOwnThread { () -> Bool in
      while running.process.isRunning {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: watched)) ?? []
        if names.contains(where: { !known.contains($0) }) {
          kill(running.process.processIdentifier, SIGKILL)
          return true
        }
      }
      return false
    }
    _ = await running.wait()
    // Killed during the write, the state is the one before (or, when the rename won the race
    // with the kill, the new one): whole either way, never cut. A state written in place would
    // be cut here, and the next run would refuse it.
    let after = try Data(contentsOf: URL(fileURLWithPath: statePath))
    #expect(!caught || after == before || after.count > before.count)
    let whole = folder.url.appendingPathComponent("whole.log")
    try Data(lines.joined().utf8).write(to: whole)
    let next = try await folder.fetcher.run("analyze", "--state", statePath, log.path, "--json")
    let onePass = try await folder.fetcher.run("analyze", whole.path, "--json")
    #expect(next.status == 0, "\(next.standardError)")
    #expect(next.standardOutput == onePass.standardOutput)
  }
}

extension AnalyzeStateTests {
  /// The state's files: FILE, its base, and its lock.
  private func stateFiles(_ folder: StateFolder) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
      .filter { $0.hasPrefix("analyze.state") }.sorted()
  }

  @Test func theBaseIsWrittenAnewOnlyWhenTheLinesSinceAreHalfAsMany() async throws {
    let folder = try StateFolder()
    let log = folder.url.appendingPathComponent("access.log")
    let state = folder.url.appendingPathComponent("analyze.state").path
    let lines = (0..<170).map { line($0 % 9, ($0 * 7 + $0 / 9) % 5) }
    let whole = folder.url.appendingPathComponent("whole.log")
    var bases: [[String]] = []
    for count in [100, 110, 170] {
      try Data(lines[..<count].joined().utf8).write(to: log)
      let run = try await folder.fetcher.run("analyze", "--state", state, log.path, "--json")
      #expect(run.status == 0, "\(run.standardError)")
      try Data(lines[..<count].joined().utf8).write(to: whole)
      let onePass = try await folder.fetcher.run("analyze", whole.path, "--json")
      #expect(run.standardOutput == onePass.standardOutput)
      bases.append(try stateFiles(folder).filter { $0.contains(".base-") })
    }
    // The first run writes one; 10 lines after 100 keep it; 70 after 100 write another.
    #expect(bases.map(\.count) == [1, 1, 1])
    #expect(bases[0] == bases[1])
    #expect(bases[1] != bases[2])
    #expect(try stateFiles(folder).count == 3)
  }

  @Test func aStateInUseOrWithADamagedBaseIsRefusedAndKept() async throws {
    let folder = try StateFolder()
    let log = folder.url.appendingPathComponent("access.log")
    let state = folder.url.appendingPathComponent("analyze.state").path
    try Data((0..<50).map { line($0 % 4, $0 % 3) }.joined().utf8).write(to: log)
    #expect(try await folder.fetcher.run("analyze", "--state", state, log.path).status == 0)

    // Another run holds the lock: this one waits for nothing and says so.
    let lock = open(state + ".lock", O_RDWR)
    #expect(flock(lock, LOCK_EX) == 0)
    let busy = try await folder.fetcher.run("analyze", "--state", state, log.path)
    close(lock)
    #expect(busy.status == 1)
    #expect(busy.standardError.contains("another fetcher analyze is using it"))

    let base = try #require(try stateFiles(folder).first { $0.contains(".base-") })
    let baseURL = folder.url.appendingPathComponent(base)
    let cut = try Data(contentsOf: baseURL).prefix(100)
    try cut.write(to: baseURL)
    let saved = try Data(contentsOf: URL(fileURLWithPath: state))
    let refused = try await folder.fetcher.run("analyze", "--state", state, log.path)
    #expect(refused.status == 1)
    #expect(refused.standardError.contains("its base \(base) cannot be read"))
    #expect(try Data(contentsOf: baseURL) == cut)
    #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == saved)
  }
}

/// `fetcher analyze --follow`: a live log, a JSON object per refresh, Ctrl-C for the end.
@Suite(.timeLimit(.minutes(10))) struct AnalyzeFollowTests {
  @Test func eachRefreshIsAJSONObjectAndCtrlCEndsWithTheResultAndTheState() async throws {
    let folder = try StateFolder()
    let log = folder.url.appendingPathComponent("access.log")
    let state = folder.url.appendingPathComponent("live.state").path
    try Data((line(1, 1) + line(1, 2) + line(1, 3)).utf8).write(to: log)
    let running = try folder.fetcher.start(
      ["analyze", "--follow", log.path, "--json", "--refresh-every", "1", "--state", state])
    let first = await running.readOutput(until: "\n")
    #expect(first.contains("\"lines\":3"))
    let handle = try FileHandle(forWritingTo: log)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data((line(1, 4) + line(2, 1)).utf8))
    try handle.close()
    _ = await running.readOutput(until: "\"lines\":5")
    kill(running.process.processIdentifier, SIGINT)
    let end = await running.wait()
    #expect(end.status == 0, "\(end.standardError)")
    #expect(end.standardError.hasPrefix("5 lines"))
    // The state goes on where the watch stopped.
    let next = try await folder.fetcher.run("analyze", "--state", state, log.path)
    #expect(next.status == 0)
    #expect(next.standardError.hasPrefix("5 lines"))
  }
}
