import Foundation
import StyleGuide
import Synchronization

/// A progress bar on standard error while a large file is analysed, only on a terminal.
final class AnalysisProgress: Sendable {
  private let totalBytes: Int
  private let isShown: Bool
  private let state = Mutex((done: 0, lastDraw: ContinuousClock.Instant?.none))

  init(totalBytes: Int) {
    self.totalBytes = totalBytes
    isShown = totalBytes >= 64 << 20 && Terminal.isTerminal(Terminal.standardError)
  }

  /// Counts `bytes` more as analysed; redraws at most ten times a second.
  func advance(_ bytes: Int) {
    guard isShown else { return }
    let now = ContinuousClock.now
    let done = state.withLock { state -> Int? in
      state.done += bytes
      if let last = state.lastDraw, now - last < .milliseconds(100) { return nil }
      state.lastDraw = now
      return state.done
    }
    guard let done else { return }
    let fraction = Double(done) / Double(max(1, totalBytes))
    Terminal.writeError(
      "\r" + ProgressBar.render(fraction, width: 30) + String(format: " %3.0f%%", fraction * 100))
  }

  /// Clears the bar.
  func finish() {
    if isShown { Terminal.writeError("\r\u{1B}[K") }
  }
}
