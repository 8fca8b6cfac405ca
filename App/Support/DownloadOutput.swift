import DownloadClient
import DownloadFeature
import Foundation
import StyleGuide
import Synchronization

/// Shows downloads as they run: a block of rows redrawn in place on a terminal, plain lines
/// otherwise, or one JSON object per event. Failures are one line each on standard error.
final class DownloadOutput: Sendable {
  private enum Mode {
    case json
    case live
    case plain
  }

  private struct State {
    var drawnLines = 0
    var lastDraw: ContinuousClock.Instant?
    var lastProgressLine: [DownloadID: ContinuousClock.Instant] = [:]
    var hadFailures = false
    /// Set once the process is stopping: nothing more is drawn.
    var isStopping = false
  }

  private let mode: Mode
  private let descriptor: Int32
  private let styles: Styles
  private let state = Mutex(State())

  /// Output to `descriptor`: standard output, or standard error when standard output carries
  /// other results.
  init(json: Bool, descriptor: Int32 = Terminal.standardOutput) {
    self.descriptor = descriptor
    styles = Styles.forStream(descriptor)
    mode = json ? .json : Terminal.isTerminal(descriptor) ? .live : .plain
  }

  /// Whether any failure was shown.
  var hadFailures: Bool { state.withLock { $0.hadFailures } }

  /// A failure outside any download's events, such as a download that could not be added.
  func failure(_ message: String) {
    state.withLock { $0.hadFailures = true }
    Terminal.writeError("fetcher: \(message)\n")
  }

  func started(_ download: Download) {
    switch mode {
    case .json: write(json(["event": "added"], download: download))
    case .plain:
      write(
        "\(download.id) \(Self.status(download.status)) \(download.request.url.absoluteString) -> \(download.destination?.path ?? "?")"
      )
    case .live: break
    }
  }

  /// Shows an event. `added` events are left out: `started` showed those downloads.
  func show(_ event: DownloadEvent, in list: DownloadList) {
    if case .added = event { return }
    if case .failed(let id, let error) = event {
      let name = list.rows.first { $0.id == id }?.name ?? id.rawValue
      failure("\(name): \(error)")
    }
    switch mode {
    case .json: write(json(event))
    case .plain: plainLine(for: event, in: list).map(write)
    case .live: draw(list, force: !Self.isProgress(event))
    }
  }

  func finish(_ list: DownloadList) {
    if mode == .live { draw(list, force: true) }
  }

  func interrupted() {
    state.withLock { $0.isStopping = true }
    Terminal.writeError("fetcher: paused; run the same command again to resume\n")
  }

  /// One download of the persisted queue.
  func describe(_ download: Download) {
    if mode == .json { return write(json([:], download: download)) }
    let row = DownloadRow(download: download)
    write(
      [download.id.rawValue, row.stateText, row.bytesText, download.destination?.path ?? ""]
        .joined(separator: "  "))
  }

  // MARK: Plain lines

  private func plainLine(for event: DownloadEvent, in list: DownloadList) -> String? {
    switch event {
    case .added: return nil
    case .statusChanged(let id, let status): return "\(id) \(Self.status(status))"
    case .progress(let id, _):
      let now = ContinuousClock.now
      let due = state.withLock { state in
        if let last = state.lastProgressLine[id], now - last < .seconds(1) { return false }
        state.lastProgressLine[id] = now
        return true
      }
      guard due, let row = list.rows.first(where: { $0.id == id }) else { return nil }
      return "\(id) progress \(row.percentText) \(row.bytesText) \(row.speedText)"
    case .finished(let id, let file): return "\(id) finished \(file.path)"
    case .failed(let id, let error): return "\(id) failed \(error)"
    case .removed(let id): return "\(id) removed"
    }
  }

  private static func status(_ status: DownloadStatus) -> String {
    switch status {
    case .queued: return "queued"
    case .running: return "running"
    case .retrying(let attempt): return "retrying (attempt \(attempt))"
    case .waitingForNetwork: return "waiting for network"
    case .paused: return "paused"
    case .completed: return "completed"
    case .failed(let reason): return "failed \(reason)"
    }
  }

  private static func isProgress(_ event: DownloadEvent) -> Bool {
    if case .progress = event { return true }
    return false
  }

  // MARK: The live block

  private func draw(_ list: DownloadList, force: Bool) {
    let now = ContinuousClock.now
    let previous = state.withLock { state -> Int? in
      if state.isStopping { return nil }
      if !force, let last = state.lastDraw, now - last < .milliseconds(100) { return nil }
      state.lastDraw = now
      defer { state.drawnLines = list.rows.count }
      return state.drawnLines
    }
    guard let previous else { return }
    let width = min(30, list.rows.map(\.name.count).max() ?? 0)
    var text = previous > 0 ? "\u{1B}[\(previous)F" : ""
    for row in list.rows {
      let name = row.name.count > width ? String(row.name.prefix(width - 1)) + "…" : row.name
      let columns = [
        name.padding(toLength: width, withPad: " ", startingAt: 0),
        ProgressBar.render(row.fraction, width: 20),
        row.percentText.leftPadded(4),
        row.bytesText.leftPadded(21),
        row.speedText.leftPadded(11),
        row.etaText.leftPadded(7),
        stateText(row),
      ]
      text += "\u{1B}[2K" + columns.joined(separator: " ") + "\n"
    }
    handle.write(Data(text.utf8))
  }

  private func stateText(_ row: DownloadRow) -> String {
    switch row.status {
    case .completed: return styles.green(row.stateText)
    case .failed: return styles.red(row.stateText)
    default: return row.stateText
    }
  }

  // MARK: JSON

  private func json(_ event: DownloadEvent) -> String {
    switch event {
    case .added(let download): return json(["event": "added"], download: download)
    case .statusChanged(let id, let status):
      return encode(["event": "status", "id": id.rawValue, "status": Self.status(status)])
    case .progress(let id, let progress):
      var fields: [String: any Sendable] = [
        "event": "progress", "id": id.rawValue, "receivedBytes": progress.receivedBytes,
        "bytesPerSecond": Int(progress.bytesPerSecond),
      ]
      fields["expectedBytes"] = progress.expectedBytes
      fields["secondsRemaining"] = progress.estimatedTimeRemaining?.components.seconds
      return encode(fields)
    case .finished(let id, let file):
      return encode(["event": "finished", "id": id.rawValue, "file": file.path])
    case .failed(let id, let error):
      return encode(["event": "failed", "id": id.rawValue, "reason": "\(error)"])
    case .removed(let id): return encode(["event": "removed", "id": id.rawValue])
    }
  }

  private func json(_ fields: [String: any Sendable], download: Download) -> String {
    var fields = fields
    fields["id"] = download.id.rawValue
    fields["url"] = download.request.url.absoluteString
    fields["status"] = Self.status(download.status)
    fields["receivedBytes"] = download.receivedBytes
    fields["destination"] = download.destination?.path
    fields["expectedBytes"] = download.expectedBytes
    return encode(fields)
  }

  private func encode(_ fields: [String: any Sendable]) -> String {
    // Only strings and numbers go in, so serialisation cannot fail.
    let data = try! JSONSerialization.data(
      withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self)
  }

  private var handle: FileHandle {
    descriptor == Terminal.standardError ? .standardError : .standardOutput
  }

  private func write(_ line: String) {
    handle.write(Data((line + "\n").utf8))
  }
}
