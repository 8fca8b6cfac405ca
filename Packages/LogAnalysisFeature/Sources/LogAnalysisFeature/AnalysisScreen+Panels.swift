import Foundation
import StyleGuide

/// The panels as the command line prints them, after the sequences.
extension AnalysisScreen {
  /// The sequences' table, then the panels' (see `panelTables`), a blank line between.
  public func tables(ascii: Bool, width: Int? = nil) -> String {
    let sequences = table(ascii: ascii, width: width)
    return panels.isEmpty ? sequences : sequences + "\n" + panelTables(ascii: ascii, width: width)
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

  /// The rows of every panel, for `--csv` with `--panels`: one table whose `panel` column
  /// names the panel (`sequences` for the ranking above), so that one reader takes it all.
  func panelCSV() -> String {
    var out = "panel,rank,name,count,share,bytes\r\n"
    for row in rows {
      out += "\(pathEnd.map { "\($0.rawValue)-pages" } ?? "sequences"),\(row.rank),"
      out += Self.csvField(row.pages.map(\.printable).joined(separator: " → "))
      out += ",\(row.count),\(row.share),\r\n"
    }
    for panel in panels {
      for (index, row) in panel.rows.enumerated() {
        out += "\(panel.key),\(panel.isTimeline ? "" : String(index + 1)),"
        out += Self.csvField(row.name.printable)
        out += ",\(row.count),\(row.share),\(row.bytes.map(String.init) ?? "")\r\n"
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
