import DownloadClient
import Foundation
import StyleGuide

/// `downloads list` as a table: a download a line, in columns that line up (id, state, size,
/// name, URL), and a failure's reason after them. Text from outside is shown printable. With a
/// `width` (a terminal's) every line is cut to it, never wrapped, and the URL is shown by what
/// tells rows apart, its host and file (`mirror.example:8080/…/a.iso`), or its host alone, as
/// room allows; a failure's reason comes before the host when both do not fit.
public enum DownloadTable {
  /// The lines of `downloads`, after a header line when `header` is set.
  public static func lines(_ downloads: [Download], header: Bool, width: Int?) -> [String] {
    var rows = downloads.map { download -> (columns: [String], tails: [String]) in
      let row = DownloadRow(download: download)
      let url = download.request.url
      var reason = ""
      if case .failed(let text) = download.status { reason = text.printable }
      let after = reason.isEmpty ? "" : "  " + reason
      // Paused by no one: its process ended (killed, or a daemon stopped).
      let state = row.interrupted ? "interrupted" : row.state.word
      // Narrowed until it fits: the host and file, the host, or a failure's reason first.
      let tails =
        width == nil
        ? [url.redactingPassword.absoluteString.printable + after]
        : [hostAndFile(url) + after, host(url) + after]
          + (reason.isEmpty ? [] : [reason + "  " + host(url)])
      return ([download.id.rawValue, state, row.bytesText, row.name.printable], tails)
    }
    if header { rows.insert((["ID", "STATE", "SIZE", "NAME"], ["URL"]), at: 0) }
    let widths = (0..<4).map { column in rows.map { $0.columns[column].count }.max() ?? 0 }
    return rows.map { row in
      let start =
        (0..<4).map { column in
          column == 2
            ? row.columns[column].leftPadded(widths[column])
            : row.columns[column].rightPadded(widths[column])
        }.joined(separator: "  ") + "  "
      guard let width else { return start + row.tails[0] }
      let tail = row.tails.first { start.count + $0.count <= width } ?? row.tails.last ?? ""
      return (start + tail).cut(to: width)
    }
  }

  /// `url`'s host (and port).
  private static func host(_ url: URL) -> String {
    let host = url.host(percentEncoded: false) ?? url.absoluteString
    return (url.port.map { "\(host):\($0)" } ?? host).printable
  }

  /// `url`'s host and the last part of its path, with `…` for what is left out.
  private static func hostAndFile(_ url: URL) -> String {
    let parts = url.path(percentEncoded: false).split(separator: "/")
    let file = parts.last.map { (parts.count > 1 ? "/…/" : "/") + $0 } ?? "/"
    return host(url) + file.printable + (url.query(percentEncoded: true) == nil ? "" : "?…")
  }
}
