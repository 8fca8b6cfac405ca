import Foundation

/// A one-file HTML report of an analysis: the summary, a flow diagram of the top sequences,
/// the ranking with a bar per row, a funnel, the entry and exit pages, and panels. Inline CSS
/// and SVG, no script, nothing fetched when opened; light and dark colour schemes; readable
/// from a phone to a wide screen. The markup is well-formed XML.
public enum HTMLReport {
  public static func render(_ data: ReportData) -> String {
    render(data, reloadEvery: nil)
  }

  /// The report of a live analysis: the browser loads it again every `seconds` (a
  /// `<meta http-equiv="refresh">`, still no script).
  public static func render(_ data: ReportData, reloadEvery seconds: Int?) -> String {
    let title = "Page paths: " + data.inputs.joined(separator: ", ")
    var body = "<h1>Page paths</h1>\n"
    body += summary(data)
    if data.flow.count > 0 && data.length >= 2 {
      body += """
        <section><h2>Flow of the top \(data.flow.count) sequences</h2>
        <p class="hint">Each column is a step; a band is as wide as the \
        \(data.countsClients ? "clients" : "visits") that take it. Hover or focus a band \
        for its count.</p>
        <div class="flow">\(FlowDiagram(rows: data.flow, length: data.length).svg())</div>
        </section>

        """
    }
    body += table(
      "Ranking", rows: data.sequences,
      headers: (1...max(1, data.length)).map { "Page \($0)" }, joined: true)
    if let funnel = data.funnel { body += FunnelDiagram.section(funnel) }
    if let entries = data.entries {
      body += table("Entry pages", rows: entries, headers: ["Page"], joined: false)
    }
    if let exits = data.exits {
      body += table("Exit pages", rows: exits, headers: ["Page"], joined: false)
    }
    for panel in data.panels {
      body += panel.isTimeline ? timeline(panel) : table(panel, bytes: data.bytes)
    }
    return """
      <!DOCTYPE html>
      <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
      <head>
      <meta charset="utf-8"/>
      \(seconds.map { "<meta http-equiv=\"refresh\" content=\"\($0)\"/>\n" } ?? "")      <meta name="viewport" content="width=device-width, initial-scale=1"/>
      <meta name="color-scheme" content="light dark"/>
      <title>\(Markup.escape(title))</title>
      <style>\(style)</style>
      </head>
      <body>
      <main>
      \(body)<footer>Made by <code>fetcher analyze</code>.</footer>
      </main>
      </body>
      </html>

      """
  }

  private static func summary(_ data: ReportData) -> String {
    var items: [(String, String)] = [
      (data.inputs.count == 1 ? "Input" : "Inputs", data.inputs.joined(separator: ", ")),
      ("Lines", "\(data.lines)"),
      ("Malformed lines", "\(data.malformedLines)"),
    ]
    if data.unreadableRequests > 0 {
      items.append(("Unreadable requests", "\(data.unreadableRequests)"))
    }
    if let first = data.firstMalformedLine { items.append(("First malformed line", first)) }
    items += [
      (
        "Clients",
        "\(data.clients)"
          + (data.clientsWithoutPage > 0 ? " (\(data.clientsWithoutPage) with no page)" : "")
      ),
      ("Distinct sequences", "\(data.distinctSequences)"),
      (
        "Time range",
        data.timeRange.map {
          "\(time($0.lowerBound, offset: data.earliestOffset)) to "
            + time($0.upperBound, offset: data.latestOffset)
        }
          ?? "no times read"
      ),
      ("Counting", data.countsClients ? "distinct clients per sequence" : "occurrences"),
      ("Options", data.options.isEmpty ? "none" : data.options.joined(separator: " ")),
    ]
    let rows = items.map {
      "<div><dt>\(Markup.escape($0.0))</dt><dd>\(Markup.escape($0.1))</dd></div>"
    }
    return "<section class=\"summary\"><dl>\n" + rows.joined(separator: "\n")
      + "\n</dl></section>\n"
  }

  /// A ranking table: rank, count, share with a bar, the pages.
  private static func table(
    _ title: String, rows: [ReportData.Row], headers: [String], joined: Bool
  ) -> String {
    let widest = rows.map(\.share).max() ?? 0
    var out = "<section><h2>\(Markup.escape(title))</h2>\n"
    guard !rows.isEmpty else { return out + "<p>None.</p></section>\n" }
    out += "<div class=\"table\"><table>\n<thead><tr><th>Rank</th><th>Count</th><th>Share</th>"
    out += joined ? "<th>Pages</th>" : headers.map { "<th>\(Markup.escape($0))</th>" }.joined()
    out += "</tr></thead>\n<tbody>\n"
    for (index, row) in rows.enumerated() {
      let width = widest > 0 ? row.share / widest * 100 : 0
      let pages = row.pages.map { "<span class=\"page\">\(Markup.escape($0))</span>" }
        .joined(separator: joined ? "<span class=\"arrow\"> → </span>" : "")
      out += """
        <tr><td>\(index + 1)</td><td>\(row.count)</td><td class="share">\
        <span class="bar" style="width: \(Markup.number(width))%"></span>\
        <span class="value">\(Markup.percent(row.share))</span></td><td>\(pages)</td></tr>

        """
    }
    return out + "</tbody></table></div></section>\n"
  }

  /// A ranked panel: rank, count, share with a bar, the bytes where it counts them, the name.
  private static func table(_ panel: ReportData.Panel, bytes total: Int?) -> String {
    let widest = panel.rows.map(\.share).max() ?? 0
    let hasBytes = panel.rows.contains { $0.bytes != nil }
    var out = "<section><h2>\(Markup.escape(panel.title))</h2>\n"
    if panel.sharesBytes, let total {
      out += "<p class=\"hint\">Shares of all \(total) bytes sent.</p>\n"
    }
    guard !panel.rows.isEmpty else { return out + "<p>None.</p></section>\n" }
    out += "<div class=\"table\"><table>\n<thead><tr><th>Rank</th><th>Count</th><th>Share</th>"
    out += hasBytes ? "<th class=\"number\">Bytes</th>" : ""
    out += "<th>\(Markup.escape(panel.nameHeader.capitalized))</th></tr></thead>\n<tbody>\n"
    for (index, row) in panel.rows.enumerated() {
      let width = widest > 0 ? row.share / widest * 100 : 0
      out += """
        <tr><td>\(index + 1)</td><td>\(row.count)</td><td class="share">\
        <span class="bar" style="width: \(Markup.number(width))%"></span>\
        <span class="value">\(Markup.percent(row.share))</span></td>\
        \(hasBytes ? "<td class=\"number\">\(row.bytes ?? 0)</td>" : "")\
        <td><span class="page">\(Markup.escape(row.name))</span></td></tr>

        """
    }
    return out + "</tbody></table></div></section>\n"
  }

  /// A panel in time order (hours, days): a column a row, as tall as its count is of the
  /// highest, its name under it and its count on hover or focus; the numbers in a table below.
  private static func timeline(_ panel: ReportData.Panel) -> String {
    var out = "<section><h2>\(Markup.escape(panel.title))</h2>\n"
    guard !panel.rows.isEmpty else { return out + "<p>None.</p></section>\n" }
    let highest = max(1, panel.rows.map(\.count).max() ?? 0)
    let (step, height, base) = (panel.rows.count > 40 ? 12.0 : 32.0, 160.0, 150.0)
    // Room for 24 columns at least, so that a few days stay as wide as hours.
    let width = Double(max(panel.rows.count, 24)) * step
    let labelEvery = max(1, panel.rows.count / 24)
    out += chart(width: width, height: height + 20, label: panel.title)
    for (index, row) in panel.rows.enumerated() {
      let tall = Double(row.count) / Double(highest) * (base - 10)
      let x = Double(index) * step
      out += "<g tabindex=\"0\"><title>\(Markup.escape(row.name)): \(row.count) "
      out += "(\(Markup.percent(row.share)))</title>"
      out += "<rect class=\"column\" x=\"\(Markup.number(x + step * 0.15))\" "
      out += "y=\"\(Markup.number(base - tall))\" width=\"\(Markup.number(step * 0.7))\" "
      out += "height=\"\(Markup.number(tall))\"/>"
      if index % labelEvery == 0 {
        // A day shows as its month and day (`07-01`); its title holds the whole date.
        let label = String(row.name.suffix(5))
        out += "<text x=\"\(Markup.number(x + step / 2))\" y=\"\(Markup.number(base + 14))\" "
        out += "text-anchor=\"middle\">\(Markup.escape(label))</text>"
      }
      out += "</g>\n"
    }
    return out
      + numbers(
        headers: [panel.nameHeader.capitalized, "Count", "Share"],
        rows: panel.rows.map { [$0.name, "\($0.count)", Markup.percent($0.share)] })
  }

  /// The start of a chart: an SVG of `width` by `height` units, named `label`.
  static func chart(width: Double, height: Double, label: String) -> String {
    "<div class=\"chart\"><svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
      + "viewBox=\"0 0 \(Markup.number(width)) \(Markup.number(height))\" role=\"img\" "
      + "aria-label=\"\(Markup.escape(label))\">\n"
  }

  /// The end of a chart and its numbers: a table of `rows` (text) under `headers`, folded,
  /// and the end of the section.
  static func numbers(headers: [String], rows: [[String]]) -> String {
    var out = "</svg></div>\n<details><summary>The numbers</summary><div class=\"table\"><table>\n"
    out += "<thead><tr>" + headers.map { "<th>\(Markup.escape($0))</th>" }.joined()
    out += "</tr></thead>\n<tbody>\n"
    for row in rows {
      out += "<tr>" + row.map { "<td>\(Markup.escape($0))</td>" }.joined() + "</tr>\n"
    }
    return out + "</tbody></table></div></details></section>\n"
  }

  /// "2024-05-01 10:00:00 UTC"
  /// `seconds` as the log wrote it, `offset` seconds east of UTC: `2023-10-10 13:55:36 +0200`.
  private static func time(_ seconds: Int64, offset: Int64) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: Int(offset)) ?? TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
    return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
  }

  private static let style = """

    :root { --text: #1d2330; --muted: #5b6475; --back: #ffffff; --panel: #f3f5f9;
      --line: #d9dee8; --accent: #2f6fde; --node: #24324d; }
    @media (prefers-color-scheme: dark) {
      :root { --text: #e6e9ef; --muted: #a0a8b8; --back: #12151c; --panel: #1b2029;
        --line: #2c3340; --accent: #6ea0ff; --node: #c8d3ea; }
    }
    * { box-sizing: border-box; }
    body { margin: 0; background: var(--back); color: var(--text);
      font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
    main { max-width: 1100px; margin: 0 auto; padding: 16px; }
    h1 { font-size: 1.6em; margin: 0.2em 0 0.6em; }
    h2 { font-size: 1.15em; margin: 1.4em 0 0.5em; }
    .hint, footer { color: var(--muted); font-size: 0.9em; }
    .summary dl { display: grid; grid-template-columns: repeat(auto-fit, minmax(160px, 1fr));
      gap: 8px; margin: 0; }
    .summary div { background: var(--panel); border-radius: 6px; padding: 8px 10px;
      overflow-wrap: anywhere; }
    .summary dt { color: var(--muted); font-size: 0.85em; }
    .summary dd { margin: 0; }
    .flow { background: var(--panel); border-radius: 6px; padding: 6px; overflow-x: auto; }
    svg.flow { display: block; width: 100%; min-width: 640px; height: auto; }
    .link { fill: none; stroke: var(--accent); stroke-opacity: 0.35; }
    .link:hover, .link:focus { stroke-opacity: 0.75; outline: none; }
    .node rect { fill: var(--node); }
    .node text { fill: var(--text); font-size: 14px; dominant-baseline: middle;
      paint-order: stroke; stroke: var(--panel); stroke-width: 3px; stroke-linejoin: round; }
    .table { overflow-x: auto; }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line);
      vertical-align: top; }
    td:nth-child(2), th:nth-child(2) { text-align: right; }
    td.share { position: relative; min-width: 110px; }
    .bar { position: absolute; left: 0; top: 4px; bottom: 4px; background: var(--accent);
      opacity: 0.25; border-radius: 3px; }
    .value { position: relative; }
    .page { overflow-wrap: anywhere; }
    .arrow { color: var(--muted); }
    td.number, th.number { text-align: right; }
    .chart { background: var(--panel); border-radius: 6px; padding: 6px; overflow-x: auto; }
    svg.chart { display: block; width: 100%; min-width: 480px; height: auto; }
    .column { fill: var(--accent); opacity: 0.7; }
    g:hover .column, g:focus .column { opacity: 1; }
    g:focus { outline: none; }
    svg.chart text { fill: var(--muted); font-size: 10px; }
    .funnel-step { fill: var(--accent); opacity: 0.75; }
    .funnel-lost { fill: var(--accent); opacity: 0.15; }
    g:hover .funnel-step, g:focus .funnel-step { opacity: 1; }
    svg.chart text.funnel-text { fill: var(--text); font-size: 13px; }

    """
}
