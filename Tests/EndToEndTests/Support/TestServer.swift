import Foundation

/// `server.py` running on a free port for one test. Stopped when released.
final class TestServer {
  /// The server's root URL, for example `http://127.0.0.1:43121`.
  let rootURL: String
  let port: Int
  private let process = Process()

  /// Starts `server.py --port <port>` (0: a free port) and waits for its first line.
  init(port: Int = 0) throws {
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", Paths.server.path, "--port", String(port)]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()

    // The first line is "Serving on http://HOST:PORT"; the rest is drained and dropped.
    let firstLine = Self.readLine(from: output.fileHandleForReading)
    output.fileHandleForReading.readabilityHandler = { _ = $0.availableData }
    guard let address = firstLine.split(separator: " ").last,
      let portText = address.split(separator: ":").last, let port = Int(portText)
    else {
      kill(process.processIdentifier, SIGKILL)
      throw StartFailure(firstLine: firstLine)
    }
    self.port = port
    rootURL = "http://127.0.0.1:\(port)"
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
