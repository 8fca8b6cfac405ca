import Foundation
import StyleGuide

/// The top songs screen (or another of Apple's feeds) as the command line prints it: a
/// numbered table or JSON.
public struct SongsReport {
  public let rows: [TopSongsViewModel.Row]

  public init(rows: [TopSongsViewModel.Row]) {
    self.rows = rows
  }

  /// "#", name, artist and price, in columns; no price column when no entry has a price (as
  /// in Apple's JSON feeds), and a kind column when an entry is not a song (an album feed, or
  /// one that mixes kinds), so that nothing is shown as a song that is not one.
  public func table() -> String {
    let hasPrices = rows.contains { $0.song.price != nil }
    let hasKinds = rows.contains { $0.song.kind.map { $0 != .song } ?? false }
    var columns: [(header: String, cell: (TopSongsViewModel.Row) -> String)] = [
      ("Name", \.song.name), ("Artist", \.song.artist),
    ]
    if hasKinds { columns.append(("Kind", { $0.song.kind?.rawValue ?? "-" })) }
    if hasPrices { columns.append(("Price", \.priceText)) }
    let cells = rows.map { row in columns.map { $0.cell(row).printable } }
    let numberWidth = max(1, rows.map { String($0.number).count }.max() ?? 0)
    let widths = columns.indices.map { index in
      max(columns[index].header.count, cells.map { $0[index].count }.max() ?? 0)
    }
    func line(_ number: String, _ values: [String]) -> String {
      let padded = values.enumerated().map { index, value in
        index == values.count - 1 ? value : value.rightPadded(widths[index])
      }
      return ([number.leftPadded(numberWidth)] + padded).joined(separator: "  ")
    }
    let lines =
      [line("#", columns.map(\.header))]
      + zip(rows, cells).map { line(String($0.number), $1) }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The entries as JSON, one object a line in the order of the rows (as `fetch --json` and
  /// `download --json` print theirs), dates in ISO 8601, with the kind when the feed says it.
  public func json() -> String {
    rows.map { JSONOutput.string($0.song) + "\n" }.joined()
  }
}
