import Foundation

/// `server.py` (or another server script that prints "Serving on URL" first) running on a free
/// port for one test. Stopped when released.
final class TestServer {
  /// The server's root URL, for example `http://127.0.0.1:43121`.
  let rootURL: String
  let port: Int
  private let process = Process()

  /// Starts `<script> --host <host> --port <port>` (0: a free port) and waits for its first
  /// line.
  init(script: URL = Paths.server, host: String = "127.0.0.1", port: Int = 0) throws {
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

  /// A TCP port on 127.0.0.1 that nothing listens on (free when this returns).
  static func freePort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
      }
    }
    guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
    return Int(UInt16(bigEndian: address.sin_port))
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
