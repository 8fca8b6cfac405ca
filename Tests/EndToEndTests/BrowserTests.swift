import Foundation
import Testing

/// `fetcher analyze --html` opened in a real browser: Debian's chromium-headless-shell (which
/// `.ci/run` installs; without it the test fails) renders the report of a generated log at a
/// desktop and a phone size. The pictures must not be blank, the page must log no console
/// error, and the DOM the browser built must hold the diagram and every table row.
@Suite struct BrowserTests {
  private static let chromium = "/usr/bin/chromium-headless-shell"

  private func chromium(_ arguments: [String]) async throws -> ToolRun {
    try await runTool(
      [
        Self.chromium, "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
        "--enable-logging=stderr", "--v=0",
      ] + arguments)
  }

  @Test func theReportRendersWithoutErrorsOnADesktopAndAPhone() async throws {
    try #require(
      FileManager.default.isExecutableFile(atPath: Self.chromium),
      "install Debian's chromium-headless-shell (apt-get install chromium-headless-shell)")
    let state = try StateFolder()
    let log = state.url.appendingPathComponent("access.log")
    let lines = (0..<3000).map { index in
      let client = "10.0.\(index % 7).\(index % 11)"
      let page = ["/", "/docs", "/docs/install", "/pricing", "/<script>x</script>", "/blog"][
        (index * 7 + index / 13) % 6]
      let time = String(format: "%02d:%02d:%02d", index / 3600, index / 60 % 60, index % 60)
      return
        #"\#(client) - - [01/May/2024:\#(time) +0000] "GET \#(page) HTTP/1.1" 200 9 "-" "agent""#
    }
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: log)
    let report = state.url.appendingPathComponent("report.html")
    let made = try await state.fetcher.run(
      "analyze", log.path, "--session-gap", "30m", "--html", report.path)
    #expect(made.status == 0, "\(made.standardError)")

    let dom = try await chromium(["--dump-dom", report.absoluteString])
    #expect(dom.status == 0)
    #expect(dom.outputText.contains("<svg"))
    // The ranking (10 rows), the entry and the exit pages (6 each at most), with headers.
    #expect(dom.outputText.components(separatedBy: "<tr>").count - 1 >= 1 + 10 + 2)
    #expect(!dom.outputText.contains("<script>"), "a page name became markup")

    for (width, height) in [(1280, 900), (390, 844)] {
      let picture = state.url.appendingPathComponent("report-\(width).png")
      let shot = try await chromium([
        "--window-size=\(width),\(height)", "--screenshot=\(picture.path)", report.absoluteString,
      ])
      #expect(shot.status == 0, "\(shot.errors)")
      let console = shot.errors.split(separator: "\n").filter {
        $0.contains("CONSOLE") || $0.contains("Uncaught") || $0.contains("net::ERR")
      }
      #expect(console.isEmpty, "\(console)")
      let stats = try await runTool([
        "/usr/bin/env", "python3",
        Paths.root.appendingPathComponent("Tests/Browser/png_stats.py").path,
        picture.path,
      ])
      #expect(stats.status == 0, "\(stats.errors)")
      let values = try JSONSerialization.jsonObject(with: stats.output) as? [String: Any]
      #expect(values?["width"] as? Int == width)
      #expect((values?["colours"] as? Int ?? 0) > 50, "\(stats.outputText)")
      #expect((values?["unlike"] as? Double ?? 0) > 0.05, "\(stats.outputText)")
    }
  }

  /// The diagram's page names, long and many, measured where the browser drew them: no two
  /// labels overlap, in any column (a script added to a copy of the report measures them).
  @Test func theDiagramsLabelsNeverOverlap() async throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.chromium))
    let state = try StateFolder()
    let log = state.url.appendingPathComponent("access.log")
    let pages = (0..<9).map { "/documentation/section-\($0)/a-rather-long-page-name-\($0).html" }
    let lines = (0..<4000).map { index in
      let client = "10.1.\(index % 13).\(index % 17)"
      let page = pages[(index * 7 + index / 11) % pages.count]
      return #"\#(client) - - [01/May/2024:10:00:00 +0000] "GET \#(page) HTTP/1.1" 200 9"#
    }
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: log)
    let report = state.url.appendingPathComponent("report.html")
    let made = try await state.fetcher.run("analyze", log.path, "--html", report.path)
    #expect(made.status == 0, "\(made.standardError)")
    let measuring = """
      <script>
      const boxes = [...document.querySelectorAll("svg text")].map(t => t.getBoundingClientRect());
      let overlaps = 0;
      for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i], boxes[j]];
        if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) overlaps++;
      }
      document.body.insertAdjacentHTML("beforeend", `<p id="measured">labels=${boxes.length} overlaps=${overlaps}</p>`);
      </script>
      """
    let html = try String(contentsOf: report, encoding: .utf8)
      .replacingOccurrences(of: "</body>", with: measuring + "</body>")
    let page = state.url.appendingPathComponent("measured.html")
    try Data(html.utf8).write(to: page)
    for width in [1280, 390] {
      let dom = try await chromium([
        "--window-size=\(width),900", "--dump-dom", page.absoluteString,
      ])
      #expect(dom.status == 0)
      let measured = dom.outputText.firstMatch(of: /labels=(\d+) overlaps=(\d+)/)
      #expect(measured.map { Int($0.1)! } ?? 0 > 0, "\(width): no labels measured")
      #expect(measured.map { Int($0.2)! } == 0, "\(width): \(measured?.0 ?? "not measured")")
    }
  }
}
