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
  /// A row is name, bar, percentage, bytes, speed, time left and state, in columns that line
  /// up from row to row (`RowLayout`). When there are more rows than lines, the downloads
  /// under way are shown and one last line counts all of them by state ("2 downloading, 8
  /// done, 12 queued").
  public func frame(width: Int, height: Int) -> [FrameLine] {
    let lines = max(1, height - 1)
    let shown = rows.count > lines ? Array(rowsUnderWay.prefix(lines - 1)) : rows
    let layout = RowLayout(
      width: width, longestName: shown.map(\.name.count).max() ?? 0,
      longestState: shown.map(\.state.word.count).max() ?? 0)
    let drawn = shown.map { row in
      FrameLine(text: row.line(layout), state: row.state)
    }
    guard rows.count > lines else { return drawn }
    return drawn + [FrameLine(text: tally.cut(to: width), state: nil)]
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
}

extension DownloadRow {
  /// The row's state.
  public var state: DownloadState { DownloadState(status) }

  /// This row in the columns of `layout`, its name cut in the middle and its state at the end.
  func line(_ layout: RowLayout) -> String {
    var columns = [name.cutInMiddle(to: layout.nameWidth).rightPadded(layout.nameWidth)]
    if layout.barWidth > 0 { columns.append(ProgressBar.render(fraction, width: layout.barWidth)) }
    columns += [percentText.leftPadded(4), bytesText.leftPadded(RowLayout.bytesWidth)]
    if layout.showsSpeed { columns.append(speedText.leftPadded(RowLayout.speedWidth)) }
    if layout.showsTimeLeft { columns.append(etaText.leftPadded(RowLayout.timeLeftWidth)) }
    columns.append(stateText)
    return columns.joined(separator: " ").cut(to: layout.width)
  }
}

/// The columns every row of one frame has, so that they line up: as many as fit in the
/// terminal's width with the name keeping 16 columns (or its own width, when shorter). What a
/// downloader watches gives way last: the bar narrows and goes first, then the time left, then
/// the speed.
struct RowLayout {
  static let bytesWidth = 23  // "1023.9 MiB / 1023.9 MiB"
  static let speedWidth = 12  // "1023.9 KiB/s"
  static let timeLeftWidth = 7  // "1:05:00"

  let width: Int
  let nameWidth: Int
  let barWidth: Int
  let showsSpeed: Bool
  let showsTimeLeft: Bool
  /// The state's room: the longest word of the rows' states, so that none is ever cut; a
  /// longer text (`failed: …`, `(retry 2)`) is cut at the line's end.
  let stateWidth: Int

  init(width: Int, longestName: Int, longestState: Int) {
    self.width = width
    stateWidth = longestState
    let wanted = min(30, longestName)
    let choices: [(bar: Int, speed: Bool, timeLeft: Bool)] = [
      (20, true, true), (10, true, true), (0, true, true), (0, true, false), (0, false, false),
    ]
    let fits = { (choice: (bar: Int, speed: Bool, timeLeft: Bool)) in
      width - Self.fixedWidth(choice.bar, choice.speed, choice.timeLeft, longestState)
    }
    let fitting = choices.first { fits($0) >= min(wanted, 16) }
    let choice = fitting ?? choices[choices.count - 1]
    (barWidth, showsSpeed, showsTimeLeft) = (choice.bar, choice.speed, choice.timeLeft)
    // Narrower still, the name keeps its 16 columns and the line is cut at its end.
    nameWidth = fitting == nil ? min(wanted, 16) : min(wanted, fits(choice))
  }

  /// The columns after the name, with the spaces between them.
  private static func fixedWidth(_ bar: Int, _ speed: Bool, _ timeLeft: Bool, _ state: Int)
    -> Int
  {
    (bar > 0 ? bar + 1 : 0) + 5 + bytesWidth + 1 + (speed ? speedWidth + 1 : 0)
      + (timeLeft ? timeLeftWidth + 1 : 0) + state + 1
  }
}
