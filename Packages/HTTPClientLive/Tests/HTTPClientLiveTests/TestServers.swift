import Foundation
import TestPorts

#if canImport(Glibc)
  import Glibc
#endif

/// The folder of the servers these tests start.
private let serversFolder = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Servers")

struct TestServerError: Error, CustomStringConvertible {
  let description: String
}

/// A server process for one test, killed when released.
final class ServerProcess: Sendable {
  private let process: Spawned

  private init(_ process: Spawned) {
    self.process = process
  }

  deinit { process.kill() }

  /// `Servers/script_server.py` on a free port of `host`; returns once it listens.
  static func script(host: String = "127.0.0.1") throws -> (ServerProcess, port: Int) {
    let process = try Spawned(
      ["python3", serversFolder.appendingPathComponent("script_server.py").path, "--host", host])
    let server = ServerProcess(process)
    // The server prints its port once it listens.
    guard let port = Int(process.readLine()) else {
      throw TestServerError(description: "script_server.py did not start (is python3 there?)")
    }
    return (server, port)
  }
}

/// nginx on loopback with its own prefix: plain HTTP, and HTTPS with HTTP/2 and a certificate
/// for `localhost` and 127.0.0.1 signed by a private CA made with `openssl`. Stopped when
/// released.
final class Nginx: Sendable {
  let folder: URL
  let httpPort: Int
  let httpsPort: Int
  /// The private CA's certificate, to trust.
  var caFile: URL { folder.appendingPathComponent("ca.pem") }
  /// The folder nginx serves.
  var root: URL { folder.appendingPathComponent("www") }

  /// Starts nginx serving `files` (name → contents), with `directives` in its `http` block;
  /// returns once it listens.
  init(files: [String: Data], directives: String = "") throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("HTTPClientLiveTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("www"), withIntermediateDirectories: true)
    for (name, contents) in files {
      try contents.write(to: folder.appendingPathComponent("www").appendingPathComponent(name))
    }
    try Self.makeCertificates(in: folder)
    httpPort = try freePort()
    httpsPort = try freePort()
    let prefix = folder.path
    let configuration = """
      pid \(prefix)/nginx.pid;
      error_log \(prefix)/error.log;
      worker_processes 1;
      events { worker_connections 64; }
      http {
        access_log off;
        client_body_temp_path \(prefix)/body; proxy_temp_path \(prefix)/proxy;
        fastcgi_temp_path \(prefix)/fastcgi; uwsgi_temp_path \(prefix)/uwsgi;
        scgi_temp_path \(prefix)/scgi;
        \(directives)
        server { listen 127.0.0.1:\(httpPort); root \(prefix)/www; }
        server {
          listen 127.0.0.1:\(httpsPort) ssl http2;
          ssl_certificate \(prefix)/server.pem; ssl_certificate_key \(prefix)/server.key;
          root \(prefix)/www;
        }
      }
      """
    try configuration.write(
      to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
    // nginx listens before its master process goes to the background and the command ends.
    let status = try run([
      Self.executable, "-p", prefix, "-c", "\(prefix)/nginx.conf", "-e", "\(prefix)/error.log",
    ])
    guard status == 0 else {
      let log =
        (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8))
      throw TestServerError(description: "nginx did not start: \(log ?? "")")
    }
  }

  deinit {
    if let pid = try? String(
      contentsOf: folder.appendingPathComponent("nginx.pid"), encoding: .utf8),
      let number = Int32(pid.trimmingCharacters(in: .whitespacesAndNewlines))
    {
      kill(number, SIGTERM)
      // Its files are removed once it has gone (for at most 5 s): a stopping nginx still
      // writes in its folder, and a removal that meets it there stops half-way.
      for _ in 0..<500 where kill(number, 0) == 0 { usleep(10_000) }
    }
    try? FileManager.default.removeItem(at: folder)
  }

  private static var executable: String {
    ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"]
      .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "nginx"
  }

  private static func makeCertificates(in folder: URL) throws {
    let script = """
      set -e
      openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
        -subj '/CN=HTTPClientLive test CA' -keyout ca.key -out ca.pem
      openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
        -subj '/CN=localhost' -keyout server.key -out server.csr
      printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\n' > san.ext
      openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
        -extfile san.ext -out server.pem
      """
    guard try run(["/bin/sh", "-c", "cd '\(folder.path)' && " + script]) == 0 else {
      throw TestServerError(description: "openssl could not make the test certificates")
    }
  }
}

/// Runs `arguments` to its end, its output discarded, and returns its exit status.
@discardableResult
func run(_ arguments: [String]) throws -> Int32 {
  try Spawned(arguments).wait()
}

/// A child process started with `posix_spawnp`, with the default signal mask and
/// dispositions (Foundation's `Process` passes on the test runner's mask, which can block
/// SIGTERM, and its `waitUntilExit` has hung here). Standard output is a pipe, standard
/// error goes to /dev/null, and no other descriptor is inherited.
final class Spawned: Sendable {
  let pid: pid_t
  private let output: Int32

  init(_ arguments: [String]) throws {
    var pipe: [Int32] = [0, 0]
    guard Glibc.pipe(&pipe) == 0 else { throw TestServerError(description: "no pipe") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    // Nothing else of this process goes to the child: a socket another test closes must not
    // stay open (and listening) in a server started here.
    guard addCloseFrom(&actions, 3) == 0 else {
      throw TestServerError(description: "posix_spawn cannot close the other descriptors")
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var signals = sigset_t()
    sigemptyset(&signals)
    posix_spawnattr_setsigmask(&attributes, &signals)
    sigaddset(&signals, SIGTERM)
    sigaddset(&signals, SIGINT)
    sigaddset(&signals, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &signals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
    close(pipe[1])
    guard result == 0 else {
      close(pipe[0])
      throw TestServerError(
        description: "cannot run \(arguments[0]): \(String(cString: strerror(result)))")
    }
    self.pid = pid
    output = pipe[0]
  }

  deinit { close(output) }

  /// The next line of standard output, without its line break ("" at the end).
  func readLine() -> String {
    var line: [UInt8] = []
    var byte: UInt8 = 0
    while read(output, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
    return String(decoding: line, as: UTF8.self)
  }

  /// Waits for the end of the process and returns its exit status.
  func wait() -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status >> 8) & 0xff
  }

  /// Stops the process at once and waits for it.
  func kill() {
    Glibc.kill(pid, SIGKILL)
    _ = wait()
  }
}

/// glibc's (2.34 and later) `posix_spawn_file_actions_addclosefrom_np`, which the Glibc module
/// does not declare.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func addCloseFrom(
  _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32
) -> Int32

/// A listening socket on loopback that never accepts: it tells whether anyone connected.
final class Listener: Sendable {
  private let socket: Int32
  let port: Int

  /// Listens on `port`, or on one the system picks.
  init(port: Int = 0) throws {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    self.socket = socket
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, length) == 0 && listen(socket, 8) == 0
          && getsockname(socket, $0, &length) == 0
      }
    }
    guard bound else {
      close(socket)
      throw TestServerError(description: "cannot listen on loopback")
    }
    self.port = Int(UInt16(bigEndian: address.sin_port))
    _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
  }

  deinit { close(socket) }

  /// Whether a connection is waiting (taken, so each counts once).
  var wasConnected: Bool {
    let connection = accept(socket, nil, nil)
    guard connection >= 0 else { return false }
    close(connection)
    return true
  }
}
