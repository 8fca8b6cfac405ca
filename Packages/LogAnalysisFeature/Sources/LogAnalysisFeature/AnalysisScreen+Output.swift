import Foundation
import StyleGuide

/// The screen as the command line prints it: a table, JSON or CSV.
extension AnalysisScreen {
  /// Rank, count, share with a bar (as long as the row's share of the first row's: block
  /// characters, or `#` with `ascii`), and the sequence as `a → b → c`. With a `width` (a
  /// terminal's), a sequence too long for its column goes on under itself, broken after an
  /// arrow, and a page too long for a line is cut in the middle: the terminal never breaks a
  /// path in two.
  public func table(ascii: Bool, width: Int? = nil) -> String {
    let countWidth = max(5, rows.map { String($0.count).count }.max() ?? 0)
    let what = pathEnd.map { "\($0.rawValue) page" } ?? (length == 1 ? "page" : "sequence")
    let widest = rows.map(\.share).max() ?? 0
    let indent = 4 + 2 + countWidth + 2 + 7 + 2 + 10 + 2
    // Narrower than this, wrapping would leave too little of each page: the terminal wraps.
    let room = width.map { $0 - indent }.flatMap { $0 >= 20 ? $0 : nil }
    var lines = [
      "rank  " + "count".leftPadded(countWidth) + "    share  " + "".rightPadded(10) + "  " + what
    ]
    for row in rows {
      let bar = ShareBar.render(widest > 0 ? row.share / widest : 0, width: 10, ascii: ascii)
      let sequence =
        room.map { room in
          row.pages.map { $0.printable.cutInMiddle(to: room - 2) }
            .wrapped(joinedBy: " → ", width: room)
        } ?? [row.sequenceText]
      lines.append(
        String(row.rank).leftPadded(4) + "  " + String(row.count).leftPadded(countWidth) + "  "
          + row.shareText.leftPadded(7) + "  " + bar + "  " + sequence[0])
      lines += sequence.dropFirst().map { String(repeating: " ", count: indent) + $0 }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `AnalysisResult` as JSON, and a newline.
  public func json() -> String {
    JSONOutput.string(AnalysisResult(self)) + "\n"
  }

  /// A header (`rank,count,share,page1,…`) and a line a row, RFC 4180 (CRLF; pages quoted as
  /// `csvField` says). With panels, one table of them all (see `panelCSV`).
  public func csv() -> String {
    if !panels.isEmpty || funnel != nil { return panelCSV() }
    let header = ["rank", "count", "share"] + (1...length).map { "page\($0)" }
    var out = header.joined(separator: ",") + "\r\n"
    for row in rows {
      out += "\(row.rank),\(row.count),\(row.share)"
      for page in row.pages { out += "," + Self.csvField(page.printable) }
      out += "\r\n"
    }
    return out
  }

  /// `text` as an RFC 4180 field. A page a spreadsheet would run as a formula (one that starts
  /// with `=`, `+`, `-`, `@`, a tab or a CR, as OWASP's "CSV injection" lists them) gets a
  /// leading `'` inside quotes, which spreadsheets show as text and do not run.
  public static func csvField(_ text: String) -> String {
    let formula = text.first.map { "=+-@\t\r".contains($0) } ?? false
    let special: [UInt8] = [
      UInt8(ascii: ","), UInt8(ascii: "\""), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
    ]
    guard formula || text.utf8.contains(where: special.contains) else { return text }
    let quoted = text.replacingOccurrences(of: "\"", with: "\"\"")
    return "\"" + (formula ? "'" : "") + quoted + "\""
  }
}
