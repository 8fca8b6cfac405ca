import Foundation
import Synchronization

/// `fetcher` run on a pseudo-terminal through util-linux `script`, so that it sees a TTY, as a
/// person at a terminal would run it. Keys are typed on `script`'s input.
final class TerminalSession: Sendable {
  private let process = Process()
  private let input = Pipe()
  private let screen = Mutex("")
  private let updates: AsyncStream<Void>
  private let updatesContinuation: AsyncStream<Void>.Continuation

  /// Runs `fetcher arguments…` on a terminal of `size` (columns and lines) when given.
  init(home: URL, arguments: [String], size: (columns: Int, lines: Int)? = nil) throws {
    (updates, updatesContinuation) = AsyncStream<Void>.makeStream()
    var command = ([Paths.fetcher.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
    if let size { command = "stty cols \(size.columns) rows \(size.lines); " + command }
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    process.arguments = ["--quiet", "--flush", "--return", "--command", command, "/dev/null"]
    var environment = ProcessInfo.processInfo.environment
    environment["FETCHER_HOME"] = home.path
    environment["TERM"] = "xterm"
    environment.removeValue(forKey: "NO_COLOR")
    process.environment = environment
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = output
    try process.run()
    // A thread of its own reads the terminal to its end (no dispatch source: corelibs
    // Foundation's readability handlers have crashed the test process).
    let reader = output.fileHandleForReading
    Thread.detachNewThread {
      while case let data = reader.availableData, !data.isEmpty {
        self.screen.withLock { $0 += String(decoding: data, as: UTF8.self) }
        self.updatesContinuation.yield()
      }
      self.updatesContinuation.finish()
    }
  }

  /// Everything written to the terminal so far, escape codes included.
  var transcript: String { screen.withLock { $0 } }

  /// The lines of the transcript without its escape sequences.
  var screenLines: [String] {
    let plain = transcript.replacingOccurrences(
      of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
    return plain.components(separatedBy: CharacterSet(charactersIn: "\r\n")).filter {
      !$0.isEmpty
    }
  }

  /// Types `keys` on the terminal.
  func type(_ keys: String) {
    input.fileHandleForWriting.write(Data(keys.utf8))
  }

  /// Returns once the terminal has shown `text` (after the first `count - 1` times it did).
  func waitFor(_ text: String, occurrence count: Int = 1) async {
    func shown() -> Bool { transcript.components(separatedBy: text).count > count }
    if shown() { return }
    for await _ in updates where shown() { return }
  }

  /// Waits for the end of `fetcher`, and for everything it wrote to be read, and returns its
  /// exit status. A test cancelled meanwhile (past its time limit) kills the terminal instead
  /// of waiting for ever.
  func exitStatus() async -> Int32 {
    let status = await withTaskCancellationHandler {
      await onOwnThread {
        self.process.waitUntilExit()
        return self.process.terminationStatus
      }
    } onCancel: {
      kill(process.processIdentifier, SIGKILL)
    }
    for await _ in updates {}
    return status
  }
}
