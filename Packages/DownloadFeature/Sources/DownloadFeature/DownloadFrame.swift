import DownloadClient
import Foundation
import StyleGuide

extension DownloadList {
  /// The rows of the live progress block for a terminal `width` columns wide and `height`
  /// lines high: no line wider than `width`, and no more lines than `height - 1`.
  ///
  /// A row is name, bar, percentage, bytes, speed, time left and state. When a row does not
  /// fit, the bar goes first, then the time left, then the speed, and what still does not fit
  /// is cut with "…". When there are more rows than lines, the downloads under way are shown
  /// and one last line counts all of them by state ("2 downloading, 8 done, 12 queued").
  public func frame(width: Int, height: Int) -> [String] {
    let lines = max(1, height - 1)
    let nameWidth = min(30, rows.map(\.name.count).max() ?? 0)
    guard rows.count > lines else {
      return rows.map { $0.line(width: width, nameWidth: nameWidth) }
    }
    let underWay = rows.filter { [.downloading, .waitingForNetwork].contains($0.state) }
    return underWay.prefix(lines - 1).map { $0.line(width: width, nameWidth: nameWidth) }
      + [Self.fitted(tally, width: width)]
  }

  /// "2 downloading, 8 done, 12 queued": the rows counted by state, under way first, then
  /// ended, then waiting.
  public var tally: String {
    let order: [DownloadState] = [
      .downloading, .waitingForNetwork, .done, .failed, .cancelled, .paused, .queued,
    ]
    return order.compactMap { state in
      let count = rows.count { $0.state == state }
      return count > 0 ? "\(count) \(state.word)" : nil
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

  /// This row in at most `width` columns, its name in a column `nameWidth` wide.
  func line(width: Int, nameWidth: Int) -> String {
    let name = DownloadList.fitted(self.name, width: nameWidth)
    var bar: String? = ProgressBar.render(fraction, width: 20)
    var eta: String? = etaText.leftPadded(7)
    var speed: String? = speedText.leftPadded(11)
    func text() -> String {
      [
        name.padding(toLength: nameWidth, withPad: " ", startingAt: 0), bar,
        percentText.leftPadded(4), bytesText.leftPadded(21), speed, eta, stateText,
      ].compactMap { $0 }.joined(separator: " ")
    }
    // Dropped in this order while the row is too wide.
    for drop in [{ bar = nil }, { eta = nil }, { speed = nil }] where text().count > width {
      drop()
    }
    return DownloadList.fitted(text(), width: width)
  }
}

extension String {
  /// Right-aligned in `width` characters.
  fileprivate func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
