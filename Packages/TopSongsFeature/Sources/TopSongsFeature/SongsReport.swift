import Foundation
import StyleGuide

/// The top songs screen as the command line prints it: a numbered table or JSON.
public struct SongsReport {
  public let rows: [TopSongsViewModel.Row]

  public init(rows: [TopSongsViewModel.Row]) {
    self.rows = rows
  }

  /// "#", name, artist and price, in columns; no price column when no song has a price (as
  /// in Apple's JSON feeds).
  public func table() -> String {
    let header = ("#", "Name", "Artist", "Price")
    let hasPrices = rows.contains { $0.song.price != nil }
    let numberWidth = max(header.0.count, rows.map { String($0.number).count }.max() ?? 0)
    let nameWidth = max(header.1.count, rows.map(\.song.name.printable.count).max() ?? 0)
    let artistWidth = max(header.2.count, rows.map(\.song.artist.printable.count).max() ?? 0)
    func line(_ number: String, _ name: String, _ artist: String, _ price: String) -> String {
      let columns = number.leftPadded(numberWidth) + "  " + name.rightPadded(nameWidth) + "  "
      return columns + (hasPrices ? artist.rightPadded(artistWidth) + "  " + price : artist)
    }
    let lines =
      [line(header.0, header.1, header.2, header.3)]
      + rows.map {
        line(
          String($0.number), $0.song.name.printable, $0.song.artist.printable,
          $0.priceText.printable)
      }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The songs as JSON, one object a line in the order of the rows (as `fetch --json` and
  /// `download --json` print theirs), dates in ISO 8601.
  public func json() -> String {
    rows.map { JSONOutput.string($0.song) + "\n" }.joined()
  }
}
