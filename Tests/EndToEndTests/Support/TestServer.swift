import Foundation
import TestPorts

/// `server.py` (or another server script that prints "Serving on URL" first) running on a free
/// port for one test. Stopped when released.
final class TestServer {
  /// The server's root URL, for example `http://127.0.0.1:43121`.
  let rootURL: String
  let port: Int
  private let process = Process()

  /// Starts `<script> --host <host> --port <port>` (nil: a free port, `freePort()`; 0: one
  /// the system picks) and waits for its first line.
  init(script: URL = Paths.server, host: String = "127.0.0.1", port: Int? = nil) throws {
    let port = try port ?? (host == "127.0.0.1" ? freePort() : 0)
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, "--host", host, "--port", String(port)]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()

    // The first line is "Serving on http://HOST:PORT"; the rest is drained and dropped.
    let firstLine = Self.readLine(from: output.fileHandleForReading)
    // A thread of its own drains the log to its end (no dispatch source: corelibs
    // Foundation's readability handlers have crashed the test process).
    let reader = output.fileHandleForReading
    Thread.detachNewThread {
      while !reader.availableData.isEmpty {}
    }
    guard let address = firstLine.split(separator: " ").last,
      let portText = address.split(separator: ":").last, let port = Int(portText)
    else {
      kill(process.processIdentifier, SIGKILL)
      throw StartFailure(firstLine: firstLine)
    }
    self.port = port
    rootURL = host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)"
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
