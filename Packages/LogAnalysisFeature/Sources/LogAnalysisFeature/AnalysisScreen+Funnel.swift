import Foundation
import LogAnalysis
import StyleGuide

/// The funnel (`--funnel`) as the command line prints it, after the sequences.
extension AnalysisScreen {
  /// "Funnel (N paths)", then a row per step: its number, the paths that reached it, their
  /// share of those that reached the first step with a bar, the paths lost since the step
  /// before, the median time from it, and the step's glob (cut in the middle to fit `width`).
  public func funnelTable(ascii: Bool, width: Int? = nil) -> String {
    guard let funnel else { return "" }
    let countWidth = max(5, funnel.steps.map { String($0.paths).count }.max() ?? 0)
    let indent = 4 + 2 + countWidth + 2 + 7 + 2 + 10 + 2 + 8 + 2 + 8 + 2
    let room = width.map { max(12, $0 - indent) }
    var lines = [
      "Funnel (\(funnel.paths) paths; a step counts when reached after the one before)",
      "step  " + "paths".leftPadded(countWidth) + "    share  " + "".rightPadded(10) + "  "
        + "lost".leftPadded(8) + "  " + "median".leftPadded(8) + "  page",
    ]
    for (index, step) in funnel.steps.enumerated() {
      let share = Self.funnelShare(step, of: funnel)
      var line = String(index + 1).leftPadded(4) + "  " + String(step.paths).leftPadded(countWidth)
      line += "  " + Self.percent(share).leftPadded(7) + "  "
      line += ShareBar.render(share, width: 10, ascii: ascii) + "  "
      line += (index == 0 ? "-" : String(step.dropOff)).leftPadded(8) + "  "
      line += (step.medianSeconds.map(Self.durationText) ?? "-").leftPadded(8) + "  "
      let glob = step.glob.printable
      lines.append(line + (room.map { glob.cutInMiddle(to: $0) } ?? glob))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A step's paths as a share of those that reached the first step (0 when none did).
  static func funnelShare(_ step: FunnelReport.Step, of funnel: FunnelReport) -> Double {
    let first = funnel.steps.first?.paths ?? 0
    return first > 0 ? Double(step.paths) / Double(first) : 0
  }

  /// A number of seconds as a person reads it: `12s`, `2.5s`, `4m 05s`, `3h 07m`, `2d 5h`.
  static func durationText(_ seconds: Double) -> String {
    let sign = seconds < 0 ? "-" : ""
    let value = abs(seconds)
    let whole = Int(value.rounded(.down))
    let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
    let text =
      switch whole {
      case ..<60: value == Double(whole) ? "\(whole)s" : String(format: "%.1fs", value)
      case ..<3600: "\(whole / 60)m \(twoDigits(whole % 60))s"
      case ..<86_400: "\(whole / 3600)h \(twoDigits(whole / 60 % 60))m"
      default: "\(whole / 86_400)d \(whole / 3600 % 24)h"
      }
    return sign + text
  }
}
