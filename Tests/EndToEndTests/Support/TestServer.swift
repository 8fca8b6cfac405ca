import Foundation
import TestPorts

/// `server.py` (or another server script that prints "Serving on URL" first) running on a free
/// port for one test. Stopped when released.
final class TestServer {
  /// The server's root URL, for example `http://127.0.0.1:43121` (https for a TLS server).
  let rootURL: String
  let port: Int
  private let process: Process

  /// Starts `<script> --host <host> --port <port> <arguments>` (nil: a free port, `freePort()`;
  /// 0: one the system picks) and waits for its first line; inside `namespace` when given. A free
  /// port can be taken before the server binds it (by another test's socket): a server that
  /// exits at once is started again on another free port, up to five times.
  init(
    script: URL = Paths.server, host: String = "127.0.0.1", port: Int? = nil,
    arguments: [String] = [], inside namespace: NetworkNamespace? = nil
  ) throws {
    var attempts = 0
    while true {
      attempts += 1
      let chosen = try port ?? (host == "127.0.0.1" ? freePort() : 0)
      let (process, firstLine) = try Self.launch(
        script, host: host, port: chosen, arguments: arguments, prefix: namespace?.prefix ?? [])
      // The first line is "Serving on http://HOST:PORT" (or https).
      if let address = firstLine.split(separator: " ").last,
        let portText = address.split(separator: ":").last, let bound = Int(portText)
      {
        self.process = process
        self.port = bound
        let scheme = address.hasPrefix("https:") ? "https" : "http"
        rootURL =
          host.contains(":") ? "\(scheme)://[\(host)]:\(bound)" : "\(scheme)://\(host):\(bound)"
        return
      }
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      guard port == nil, host == "127.0.0.1", attempts < 5 else {
        throw StartFailure(firstLine: firstLine)
      }
    }
  }

  /// The script started on `host` and `port` by `prefix` (which execs it), and its first line;
  /// the rest of its output is drained and dropped.
  private static func launch(
    _ script: URL, host: String, port: Int, arguments: [String], prefix: [String]
  ) throws -> (Process, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      prefix + ["python3", script.path, "--host", host, "--port", String(port)] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let firstLine = readLine(from: output.fileHandleForReading)
    // A thread of its own drains the log to its end (no dispatch source: corelibs
    // Foundation's readability handlers have crashed the test process).
    let reader = output.fileHandleForReading
    Thread.detachNewThread {
      while !reader.availableData.isEmpty {}
    }
    return (process, firstLine)
  }

  /// Stops the server and waits until it has exited. SIGKILL, because a process started by
  /// the test runner may inherit a signal mask that blocks SIGTERM.
  func stop() {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  deinit { stop() }

  private static func readLine(from handle: FileHandle) -> String {
    var bytes = Data()
    while true {
      let chunk = handle.readData(ofLength: 1)
      if chunk.isEmpty || chunk == Data("\n".utf8) { break }
      bytes.append(chunk)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  struct StartFailure: Error, CustomStringConvertible {
    let firstLine: String
    var description: String { "server.py did not start: \"\(firstLine)\"" }
  }
}
