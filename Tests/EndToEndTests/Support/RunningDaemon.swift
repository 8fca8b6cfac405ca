import Foundation
import TestPorts

/// `fetcher daemon` in the foreground on a free port, with a state folder, until released.
final class RunningDaemon {
  let port: Int
  let process: RunningFetcher
  /// The secret given, or the one the daemon made (from its `daemon.json`); nil for a daemon
  /// started with `--no-rpc-secret`.
  let secret: String?

  /// Starts the daemon of `state`, writing to `folder`, with `arguments` after its own (and
  /// `prefix`'s words before the executable); waits until it listens.
  init(
    state: StateFolder, folder: URL, secret: String? = nil, arguments: [String] = [],
    prefix: [String] = []
  ) async throws {
    port = try freePort()
    let options = secret.map { ["--rpc-secret", $0] } ?? []
    var fetcher = state.fetcher
    fetcher.prefix = prefix
    process = try fetcher.start(
      ["daemon", "--rpc-listen-port", String(port), "-d", folder.path] + options + arguments)
    let said = await process.readError(until: "listening")
    guard said.contains("listening") else { throw DaemonFailure(said) }
    let file = try Data(contentsOf: state.url.appendingPathComponent("daemon.json"))
    self.secret =
      (try JSONSerialization.jsonObject(with: file) as? [String: Any])?["secret"]
      as? String
  }

  deinit {
    if process.process.isRunning { kill(process.process.processIdentifier, SIGKILL) }
  }

  var url: String { "http://127.0.0.1:\(port)/jsonrpc" }

  /// The answer to the JSON-RPC body `body`, POSTed by curl as AriaNg posts it.
  func post(_ body: String) async throws -> Any {
    let run = try await runTool([
      "/usr/bin/curl", "-sS", "-H", "Content-Type: application/json", "--data-binary", body, url,
    ])
    guard run.status == 0 else { throw DaemonFailure("curl: \(run.errors)") }
    return try JSONSerialization.jsonObject(with: run.output)
  }

  /// The result of `method` with `params` (the secret first, when there is one); throws the
  /// error's message.
  func call(_ method: String, _ params: [Any] = []) async throws -> Any {
    let token: [Any] = secret.map { ["token:\($0)"] } ?? []
    let body: [String: Any] = [
      "jsonrpc": "2.0", "id": "e2e", "method": method, "params": token + params,
    ]
    let text = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
    let answer = try await post(text) as? [String: Any]
    if let error = answer?["error"] as? [String: Any] {
      throw DaemonFailure("\(error["message"] ?? error)")
    }
    return answer?["result"] ?? NSNull()
  }
}

struct DaemonFailure: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) { self.description = description }
}
