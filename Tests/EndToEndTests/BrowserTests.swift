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
}
