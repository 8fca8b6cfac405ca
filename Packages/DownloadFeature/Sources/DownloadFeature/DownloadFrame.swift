import DownloadClient
import Foundation
import StyleGuide

/// A line of the live progress block, and the state of the download it shows (nil for the
/// tally), by which a terminal may colour it.
public struct FrameLine: Equatable, Sendable {
  public var text: String
  public var state: DownloadState?
}

extension DownloadList {
  /// The lines of the live progress block for a terminal `width` columns wide and `height`
  /// lines high: no line wider than `width`, and no more lines than `height - 1`. Its cost
  /// grows with the lines shown, not with the rows.
  ///
  /// A row is name, bar, percentage, bytes, speed, time left and state. When a row does not
  /// fit, the bar goes first, then the time left, then the speed, and what still does not fit
  /// is cut with "…". When there are more rows than lines, the downloads under way are shown
  /// and one last line counts all of them by state ("2 downloading, 8 done, 12 queued").
  public func frame(width: Int, height: Int) -> [FrameLine] {
    let lines = max(1, height - 1)
    let shown = rows.count > lines ? Array(rowsUnderWay.prefix(lines - 1)) : rows
    let nameWidth = min(30, shown.map(\.name.count).max() ?? 0)
    let drawn = shown.map { row in
      FrameLine(text: row.line(width: width, nameWidth: nameWidth), state: row.state)
    }
    guard rows.count > lines else { return drawn }
    return drawn + [FrameLine(text: Self.fitted(tally, width: width), state: nil)]
  }

  /// "2 downloading, 8 done, 12 queued": the rows counted by state, under way first, then
  /// ended, then waiting.
  public var tally: String {
    let order: [DownloadState] = [
      .downloading, .waitingForNetwork, .done, .failed, .cancelled, .paused, .queued,
    ]
    return order.compactMap { state in
      count(of: state) > 0 ? "\(count(of: state)) \(state.word)" : nil
    }.joined(separator: ", ")
  }

  /// `text` cut to `width` characters, ending with "…" when cut.
  static func fitted(_ text: String, width: Int) -> String {
    guard text.count > width else { return text }
    return width > 0 ? String(text.prefix(width - 1)) + "…" : ""
  }
}

extension DownloadRow {
  /// The row's state.
  public var state: DownloadState { DownloadState(status) }

  /// This row in at most `width` columns, its name in a column up to `nameWidth` wide.
  func line(width: Int, nameWidth: Int) -> String {
    let bar = ProgressBar.render(fraction, width: 20)
    let (percent, bytes) = (percentText.leftPadded(4), bytesText.leftPadded(21))
    let (speed, eta) = (speedText.leftPadded(11), etaText.leftPadded(7))
    // The columns after the name, dropping the bar, then the time left, then the speed, until
    // the name keeps at least 16 columns (or its own width, when shorter).
    let choices = [
      [bar, percent, bytes, speed, eta, stateText], [percent, bytes, speed, eta, stateText],
      [percent, bytes, speed, stateText], [percent, bytes, stateText],
    ]
    for columns in choices {
      let rest = columns.joined(separator: " ")
      let room = min(nameWidth, width - rest.count - 1)
      if room >= min(nameWidth, 16) {
        let name = DownloadList.fitted(self.name, width: room)
        return name.padding(toLength: room, withPad: " ", startingAt: 0) + " " + rest
      }
    }
    let rest = choices[choices.count - 1].joined(separator: " ")
    return DownloadList.fitted(DownloadList.fitted(name, width: 16) + " " + rest, width: width)
  }
}
