import Foundation
import TestPorts

/// nginx on 127.0.0.1 serving a folder of files, for one test: a real server's ranges,
/// `ETag`, `Last-Modified` and 304 answers. Each connection is sent at most `rate` (nginx's
/// `limit_rate`), when given. Stopped when released.
final class NginxServer {
  let folder: URL
  let rootURL: String

  /// Starts nginx serving `files` (name → contents), with `directives` in its `server`
  /// block; returns once it listens.
  init(files: [String: Data], rate: String? = nil, directives: String = "") throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("fetcher-nginx-\(UUID().uuidString)")
    let root = folder.appendingPathComponent("www")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    for (name, contents) in files { try contents.write(to: root.appendingPathComponent(name)) }
    let port = try freePort()
    rootURL = "http://127.0.0.1:\(port)"
    let prefix = folder.path
    let configuration = """
      pid \(prefix)/nginx.pid;
      worker_processes 1;
      events { worker_connections 64; }
      http {
        access_log off;
        client_body_temp_path \(prefix)/body; proxy_temp_path \(prefix)/proxy;
        fastcgi_temp_path \(prefix)/fastcgi; uwsgi_temp_path \(prefix)/uwsgi;
        scgi_temp_path \(prefix)/scgi;
        server { listen 127.0.0.1:\(port); root \(root.path); \(rate.map { "limit_rate \($0);" } ?? "") \(directives) }
      }
      """
    try configuration.write(
      to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
    // nginx listens before its master process goes to the background and the command ends.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
    process.arguments = ["-p", prefix, "-c", "\(prefix)/nginx.conf", "-e", "\(prefix)/error.log"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    // waitpid itself: Foundation's Process never saw this one end under the test runner.
    var status: Int32 = 0
    let waited = waitpid(process.processIdentifier, &status, 0)
    guard waited == -1 || status == 0 else {
      let log = try? String(
        contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)
      throw NginxFailure(description: "nginx did not start: \(log ?? "")")
    }
  }

  deinit {
    let pid = try? String(contentsOf: folder.appendingPathComponent("nginx.pid"), encoding: .utf8)
    if let pid, let number = Int32(pid.trimmingCharacters(in: .whitespacesAndNewlines)) {
      kill(number, SIGTERM)
      // Its files are removed once it has gone (for at most 5 s): a stopping nginx still
      // writes in its folder.
      for _ in 0..<500 where kill(number, 0) == 0 { usleep(10_000) }
    }
    try? FileManager.default.removeItem(at: folder)
  }

  /// Replaces the file `name` (a new `ETag` and date).
  func replace(_ name: String, with contents: Data) throws {
    try contents.write(to: folder.appendingPathComponent("www").appendingPathComponent(name))
  }
}

struct NginxFailure: Error, CustomStringConvertible {
  let description: String
}
