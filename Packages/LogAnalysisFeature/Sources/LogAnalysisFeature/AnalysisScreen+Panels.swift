import Foundation
import StyleGuide

/// The panels as the command line prints them, after the sequences.
extension AnalysisScreen {
  /// The sequences' table, then the funnel's (see `funnelTable`) and the panels' (see
  /// `panelTables`), a blank line between.
  public func tables(ascii: Bool, width: Int? = nil) -> String {
    var tables = [table(ascii: ascii, width: width)]
    if funnel != nil { tables.append(funnelTable(ascii: ascii, width: width)) }
    if !panels.isEmpty { tables.append(panelTables(ascii: ascii, width: width)) }
    return tables.joined(separator: "\n")
  }

  /// Each panel under its title: rank, count, share with a bar (as long as the row's share of
  /// the first row's), the bytes where the panel counts them, and the name; hours and days in
  /// time order, without ranks. With a `width`, names are cut in the middle to fit it.
  public func panelTables(ascii: Bool, width: Int? = nil) -> String {
    panels.map { panel in
      let countWidth = max(5, panel.rows.map { String($0.count).count }.max() ?? 0)
      let hasBytes = panel.rows.contains { $0.bytes != nil }
      let bytesWidth = 9
      let widest = panel.rows.map(\.share).max() ?? 0
      let first = panel.isTimeline ? max(4, panel.rows.map(\.name.count).max() ?? 0) : 4
      let indent = first + 2 + countWidth + 2 + 7 + 2 + 10 + 2 + (hasBytes ? bytesWidth + 2 : 0)
      let room = width.map { max(12, $0 - indent) }
      var header = (panel.isTimeline ? panel.nameHeader.rightPadded(first) : "rank")
      header += "  " + "count".leftPadded(countWidth) + "    share  " + "".rightPadded(10)
      if hasBytes { header += "  " + "bytes".leftPadded(bytesWidth) }
      if !panel.isTimeline { header += "  " + panel.nameHeader }
      var lines = [panel.title, header]
      if panel.rows.isEmpty { lines.append("(none)") }
      for (index, row) in panel.rows.enumerated() {
        let bar = ShareBar.render(widest > 0 ? row.share / widest : 0, width: 10, ascii: ascii)
        var line = panel.isTimeline ? row.name.rightPadded(first) : String(index + 1).leftPadded(4)
        line += "  " + String(row.count).leftPadded(countWidth) + "  "
        line += Self.percent(row.share).leftPadded(7) + "  " + bar
        if hasBytes { line += "  " + ByteSize.text(Int64(row.bytes ?? 0)).leftPadded(bytesWidth) }
        if !panel.isTimeline {
          let name = row.name.printable
          line += "  " + (room.map { name.cutInMiddle(to: $0) } ?? name)
        }
        lines.append(line)
      }
      if panel.sharesBytes, let bytes {
        lines.append("All visits: \(ByteSize.text(Int64(bytes))) (\(bytes) bytes)")
      }
      return lines.map { $0.trimmingTrailingSpaces }.joined(separator: "\n") + "\n"
    }.joined(separator: "\n")
  }

  /// The rows of every panel and of the funnel, for `--csv` with `--panels` or `--funnel`:
  /// one table whose `panel` column names the panel (`sequences` for the ranking above,
  /// `funnel` for the steps, ranked by their order), so that one reader takes it all. The
  /// funnel's rows alone have a drop-off and a median time.
  func panelCSV() -> String {
    var out = "panel,rank,name,count,share,bytes,drop_off,median_seconds\r\n"
    for row in rows {
      out += "\(pathEnd.map { "\($0.rawValue)-pages" } ?? "sequences"),\(row.rank),"
      out += Self.csvField(row.pages.map(\.printable).joined(separator: " → "))
      out += ",\(row.count),\(row.share),,,\r\n"
    }
    for (index, step) in (funnel?.steps ?? []).enumerated() {
      out += "funnel,\(index + 1),\(Self.csvField(step.glob.printable)),\(step.paths),"
      out += "\(Self.funnelShare(step, of: funnel!)),,\(step.dropOff),"
      out += "\(step.medianSeconds.map { String($0) } ?? "")\r\n"
    }
    for panel in panels {
      for (index, row) in panel.rows.enumerated() {
        out += "\(panel.key),\(panel.isTimeline ? "" : String(index + 1)),"
        out += Self.csvField(row.name.printable)
        out += ",\(row.count),\(row.share),\(row.bytes.map(String.init) ?? ""),,\r\n"
      }
    }
    return out
  }

  /// "12.34%"
  static func percent(_ share: Double) -> String { String(format: "%.2f%%", share * 100) }
}

extension String {
  fileprivate var trimmingTrailingSpaces: String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
