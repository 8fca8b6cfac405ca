import DownloadClient
import Foundation
import StyleGuide

/// `downloads list` as a table: a download a line, in columns that line up (id, state, size,
/// name, URL), and a failure's reason after them. Text from outside is shown printable; with a
/// `width` (a terminal's), every line is cut to it, never wrapped.
public enum DownloadTable {
  /// The lines of `downloads`, after a header line when `header` is set.
  public static func lines(_ downloads: [Download], header: Bool, width: Int?) -> [String] {
    var rows = downloads.map { download -> [String] in
      let row = DownloadRow(download: download)
      var last = download.request.url.redactingPassword.absoluteString.printable
      if case .failed(let reason) = download.status { last += "  " + reason.printable }
      // Paused by no one: its process ended (killed, or a daemon stopped).
      let state = row.interrupted ? "interrupted" : row.state.word
      return [download.id.rawValue, state, row.bytesText, row.name.printable, last]
    }
    if header { rows.insert(["ID", "STATE", "SIZE", "NAME", "URL"], at: 0) }
    let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
    return rows.map { row in
      let line =
        (0..<4).map { column in
          column == 2
            ? row[column].leftPadded(widths[column]) : row[column].rightPadded(widths[column])
        }.joined(separator: "  ") + "  " + row[4]
      return width.map { line.cut(to: $0) } ?? line
    }
  }
}
