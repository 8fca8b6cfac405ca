import DataFetchFeature
import Foundation
import StyleGuide

/// The single-screen fetcher: the two values, a `[ Fetch Content ]` button (Enter or Space),
/// the error line and an offline notice while the server cannot be reached; `q` quits. A
/// fetch that fails because the server is gone runs again when it is back.
@MainActor
final class InteractiveScreen {
  private let model: DataFetchViewModel
  private let styles = Styles.forStream(Terminal.standardOutput)
  private var isFetching = false
  private var spinnerFrame: String?

  init(model: DataFetchViewModel) {
    self.model = model
  }

  func run() async {
    await RawMode.enter()
    defer { RawMode.leave() }
    draw()
    await model.onAppear()
    draw()
    let watcher = Task { await model.watchServer { Task { @MainActor in self.draw() } } }
    defer { watcher.cancel() }
    for await command in Keys.commands() {
      switch command {
      case .quit:
        return
      case .fetch where !isFetching:
        isFetching = true
        draw()
        Task { await fetch() }
      case .fetch:
        continue
      }
    }
  }

  private func fetch() async {
    await Spinner.run(
      clock: ContinuousClock(),
      show: { frame in Task { @MainActor in self.showSpinner(frame) } },
      hide: {},
      operation: { await model.fetchOrWaitForServer() })
    isFetching = false
    spinnerFrame = nil
    draw()
  }

  private func showSpinner(_ frame: String) {
    guard isFetching else { return }
    spinnerFrame = frame
    draw()
  }

  private func draw() {
    let state = model.state()
    var lines = [
      "",
      "  " + styles.bold("Global Data Fetcher"),
      "",
      "  " + state.responseCodeLabel,
      "  " + state.timesFetchedLabel,
      "",
      "  " + button,
      "",
    ]
    if let message = state.errorMessage {
      // While it waits for the server, the notice below says what happens next, which
      // "Please try again" would contradict.
      if !state.isWaitingForServer {
        lines += Self.wrapped(message.printable).map { "  " + styles.red($0) }
      }
      if let cause = state.errorCause {
        lines += Self.wrapped(cause.printable).map { "  " + styles.dim($0) }
      }
      lines.append("")
    }
    if let notice = state.offlineNotice {
      lines += Self.wrapped(notice).map { "  " + styles.bold($0) }
      lines.append("")
    }
    lines.append("  " + styles.dim("Enter or Space: fetch   q: quit"))
    let screen = "\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\n")
    Terminal.draw(screen)
  }

  /// `text` in lines that fit the terminal after the screen's indent, broken between words
  /// (the terminal itself would break inside one): the error, its cause, the offline notice.
  private static func wrapped(_ text: String) -> [String] {
    let width = max(10, Terminal.size(of: Terminal.standardOutput).columns - 2)
    return text.split(separator: " ").map(String.init).wrapped(joinedBy: " ", width: width)
  }

  private var button: String {
    if model.state().isWaitingForServer { return styles.dim("[ Waiting for the server… ]") }
    if let spinnerFrame { return styles.dim("[ \(spinnerFrame) Fetching… ]") }
    if isFetching { return styles.dim("[ Fetch Content ]") }
    return styles.inverse("[ Fetch Content ]")
  }
}
