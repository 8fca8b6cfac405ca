import AnalysisReport
import Foundation
import LogAnalysisFeature
import LogAnalysisLive
import StyleGuide
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `analyze --follow`: the live view of a growing log, until Ctrl-C.
extension AnalyzeCommand {
  /// Follows the log at `path`, showing the result at each refresh, until SIGINT: then the
  /// state is saved (with `--state`), the result printed as without `--follow`, and the
  /// command ends with status 0.
  func watch(_ path: String, options: AnalysisOptions) async throws {
    let file = state.map { StateFile(path: $0) }
    let lock = try file.map { try locked($0) }
    defer { withExtendedLifetime(lock) {} }
    let saved = try file.flatMap { file in
      try loadState(file, of: path, options: options).map { saved in
        do {
          return try saved.state()
        } catch {
          throw AnalyzeError("the state \(file.path) cannot be read: \(error)")
        }
      }
    }
    let follower = LogFollower(
      path: path, options: options, format: try reading.format(),
      every: .seconds(refreshEvery), clock: ContinuousClock())
    let live = LiveTable()
    let started = ContinuousClock.now
    // In place before the first read, so that any Ctrl-C ends the watch and saves the state.
    let interrupts = await Signals.stream([SIGINT])
    let watch = Task {
      try await follower.run(from: saved) { partial, reading in
        for note in reading.notes {
          Terminal.writeError("fetcher: warning: \(note.printable)\n")
        }
        try show(partial, live: live)
      }
    }
    let stopper = Task {
      for await _ in interrupts { return watch.cancel() }
    }
    defer { stopper.cancel() }
    let end = try await watch.value
    if let file {
      do {
        try file.save(end)
      } catch {
        throw AnalyzeError("the state \(file.path) cannot be saved: \(error)")
      }
    }
    live.erase()
    let screen = AnalysisScreen(end.partial, top: top)
    if let html {
      let report = ReportData(end.partial, top: top, inputs: [path])
      try write(Data(HTMLReport.render(report).utf8), to: html)
    } else if !json {
      let ascii = !Styles.forStream(STDOUT_FILENO).isEnabled
      let width =
        Terminal.isTerminal(STDOUT_FILENO) ? Terminal.size(of: STDOUT_FILENO).columns : nil
      try Terminal.write(screen.tables(ascii: ascii, width: width))
    }
    writeSummary(screen, result: end.partial, bytes: nil, elapsed: ContinuousClock.now - started)
  }

  /// One refresh: a JSON object a line, the HTML file rewritten (it reloads itself), or the
  /// table redrawn in place on a terminal (nothing on a pipe until the end).
  private func show(_ partial: Partial, live: LiveTable) throws {
    if json {
      try Terminal.write(AnalysisScreen(partial, top: top).json())
    } else if let html {
      let report = ReportData(partial, top: top, inputs: inputs)
      try write(Data(HTMLReport.render(report, reloadEvery: refreshEvery).utf8), to: html)
    } else if Terminal.isTerminal(STDOUT_FILENO) {
      let size = Terminal.size(of: STDOUT_FILENO)
      // The table and a line of counts fit the screen: rows that do not are cut.
      let screen = AnalysisScreen(partial, top: max(1, min(top == 0 ? .max : top, size.lines)))
      let ascii = !Styles.forStream(STDOUT_FILENO).isEnabled
      let table = screen.tables(ascii: ascii, width: size.columns).split(
        separator: "\n", omittingEmptySubsequences: false
      ).dropLast()
      let clients = screen.clients
      let text =
        table.prefix(max(1, size.lines - 2)).map { $0 + "\n" }.joined()
        + "\(partial.lines) \(partial.lines == 1 ? "line" : "lines"), \(clients) "
        + "\(clients == 1 ? "client" : "clients") (Ctrl-C ends)\n"
      live.draw(text)
    }
  }
}

/// The table drawn in place: each drawing erases the one before.
private final class LiveTable: Sendable {
  private let lines = Mutex(0)

  func draw(_ text: String) {
    lines.withLock { count in
      Terminal.draw(Self.erasing(count) + text)
      count = text.reduce(0) { $0 + ($1 == "\n" ? 1 : 0) }
    }
  }

  /// Erases the last drawing, before the final result.
  func erase() {
    lines.withLock { count in
      Terminal.draw(Self.erasing(count))
      count = 0
    }
  }

  private static func erasing(_ lines: Int) -> String {
    lines > 0 ? "\u{1B}[\(lines)F\u{1B}[J" : ""
  }
}
