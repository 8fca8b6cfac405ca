import DownloadClient
import DownloadFeature
import Foundation
import StoreLive
import StyleGuide
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Shows downloads as they run: a block of rows redrawn in place on a terminal (cut to its
/// width and height), plain lines otherwise, one JSON object per event with `--json`, or
/// nothing with `--quiet`. Failures are one line each on standard error, always; a closing
/// summary goes there too on a terminal.
final class DownloadOutput: Sendable {
  enum Mode {
    case json
    case live
    case plain
    case quiet
  }

  private struct State {
    /// The block as last drawn, styled: a message printed above it draws it again.
    var block: [String] = []
    var lastDraw: ContinuousClock.Instant?
    var lines = DownloadLines<ContinuousClock.Instant>()
    /// The state each download was last shown in, as a line or a JSON object: a state said
    /// again (a resumed download's `queued`) is not repeated.
    var lastState: [DownloadID: String] = [:]
    /// The exit status of the last failure shown.
    var failureStatus: Int32?
    /// Set once the process is stopping: nothing more is drawn.
    var isStopping = false
  }

  private let mode: Mode
  private let descriptor: Int32
  private let styles: Styles
  private let started = ContinuousClock.now
  private let state = Mutex(State())
  /// Set once standard output refused a write.
  private let isRefused = Atomic(false)

  /// Output to `descriptor`: standard output, or standard error when standard output carries
  /// other results.
  init(json: Bool, quiet: Bool = false, descriptor: Int32 = Terminal.standardOutput) {
    self.descriptor = descriptor
    styles = Styles.forStream(descriptor)
    mode =
      quiet ? .quiet : json ? .json : Terminal.isTerminal(descriptor) ? .live : .plain
  }

  /// The exit status of the last failure shown (`DownloadExitCode`); 1 when standard output
  /// refused the results and nothing else failed; nil when neither happened.
  var failureStatus: Int32? {
    state.withLock { $0.failureStatus } ?? (isRefused.load(ordering: .relaxed) ? 1 : nil)
  }

  /// A failure outside any download's events, such as a download that could not be added,
  /// and the exit status it calls for.
  func failure(_ message: String, status: Int32 = 1) {
    say(message, failure: status)
  }

  /// A line of the download manager's log (a mirror dropped, a piece fetched again), on
  /// standard error above the live block.
  func note(_ message: String) {
    say(message, failure: nil)
  }

  /// Writes `message` on standard error; a failure's exit status is kept.
  private func say(_ message: String, failure status: Int32?) {
    let line = "fetcher: \(message.printable)\n"
    state.withLock { state in
      if let status { state.failureStatus = status }
      guard mode == .live, !state.block.isEmpty else { return Terminal.writeError(line) }
      // Above the block, which is drawn again below it, so that rows never break.
      emit(Self.erasing(state.block.count))
      Terminal.writeError(line)
      emit(state.block.map { $0 + "\n" }.joined())
    }
  }

  /// Moves back to the first line of a block of `lines` and erases from there down.
  private static func erasing(_ lines: Int) -> String {
    lines > 0 ? "\u{1B}[\(lines)F\u{1B}[J" : ""
  }

  func started(_ download: Download) {
    state.withLock { $0.lastState[download.id] = download.status.text }
    switch mode {
    case .json: write(JSONOutput.string(DownloadJSON(event: "added", download: download)))
    case .plain:
      write(
        "\(download.id) \(download.status.text) \(download.request.url.absoluteString) -> \(download.destination?.path ?? "?")"
      )
    case .live, .quiet: break
    }
  }

  /// Shows an event. `added` events are left out: `started` showed those downloads; so is a
  /// state the download was last shown in.
  func show(_ event: DownloadEvent, in list: DownloadList) {
    if case .added = event { return }
    if case .statusChanged(let id, let status) = event {
      let repeated = state.withLock { state in
        defer { state.lastState[id] = status.text }
        return state.lastState[id] == status.text
      }
      if repeated && mode != .live { return }
    }
    if case .failed(let id, let error) = event {
      let name = list.row(id)?.name ?? id.rawValue
      failure("\(name): \(error)", status: DownloadExitCode.of(error))
    }
    switch mode {
    case .json: write(JSONOutput.string(DownloadJSON(event)))
    case .plain:
      let now = ContinuousClock.now
      state.withLock { $0.lines.line(for: event, in: list, at: now) }.map { write($0.printable) }
    case .live: draw(list, force: !Self.isProgress(event))
    case .quiet: break
    }
  }

  /// The last frame on a terminal, and there and through a pipe alike the summary
  /// (`DownloadList.summary(elapsed:)`) on standard error.
  func finish(_ list: DownloadList) {
    guard mode == .live || mode == .plain else { return }
    if mode == .live { draw(list, force: true) }
    Terminal.writeError(list.summary(elapsed: ContinuousClock.now - started) + "\n")
  }

  func interrupted(paused: Bool = true) {
    state.withLock { $0.isStopping = true }
    Terminal.writeError(
      paused
        ? "fetcher: paused; run the same command again to resume\n"
        : "fetcher: the daemon goes on with them\n")
  }

  /// One download of the persisted queue, as JSON (the table is `DownloadTable`'s).
  func describe(_ download: Download) {
    write(JSONOutput.string(DownloadJSON(event: nil, download: download)))
  }

  private static func isProgress(_ event: DownloadEvent) -> Bool {
    if case .progress = event { return true }
    return false
  }

  // MARK: The live block

  private func draw(_ list: DownloadList, force: Bool) {
    let now = ContinuousClock.now
    let due = state.withLock { state in
      if state.isStopping { return false }
      if !force, let last = state.lastDraw, now - last < .milliseconds(100) { return false }
      state.lastDraw = now
      return true
    }
    guard due else { return }
    let size = Terminal.size(of: descriptor)
    let block = list.frame(width: size.columns, height: size.lines).map(styled)
    state.withLock { state in
      // Back to the block's first line, then everything below it is drawn anew (a narrower
      // terminal may have wrapped the old lines).
      let text = Self.erasing(state.block.count) + block.map { $0 + "\n" }.joined()
      state.block = block
      emit(text)
    }
  }

  /// `line` green when it shows a download that is done, red when it shows a failed one.
  private func styled(_ line: FrameLine) -> String {
    switch line.state {
    case .done: return styles.green(line.text)
    case .failed: return styles.red(line.text)
    default: return line.text
    }
  }

  // MARK: JSON

  private func write(_ line: String) {
    emit(line + "\n")
  }

  /// Writes `text` to the output's descriptor. When standard output refuses it (a full disk),
  /// that is said once on standard error and the exit status becomes 1; the downloads go on,
  /// since their files are the result.
  private func emit(_ text: String) {
    guard descriptor == Terminal.standardOutput else { return Terminal.writeError(text) }
    guard !FileWrite.all(Data(text.utf8), to: descriptor) else { return }
    let reason = Terminal.outputRefusal
    if !isRefused.exchange(true, ordering: .relaxed) { Terminal.writeError("fetcher: \(reason)\n") }
  }
}
