import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `fetcher daemon --detach`: the same command without it, in a new session with no
/// terminal, its output in `daemon.log` in the state folder.
enum Detached {
  /// Starts the daemon and returns once it listens (its `DaemonFile` names it), or fails with
  /// its log's last line when it ends first.
  static func start() throws {
    let log = Directories.state.appendingPathComponent("daemon.log")
    try FileManager.default.createDirectory(
      at: Directories.state, withIntermediateDirectories: true)
    let arguments = CommandLine.arguments.filter { $0 != "--detach" && $0 != "-D" }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, 2, log.path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // POSIX_SPAWN_SETSID, glibc's value, which Swift does not import: a new session, which
    // no terminal's hang-up reaches.
    posix_spawnattr_setflags(&attributes, 0x80)
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    let argv = ([executable] + arguments.dropFirst()).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
    guard spawned == 0 else {
      throw failure("cannot start the daemon: \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    var port: UInt16?
    while port == nil {
      if let daemon = DaemonFile.running(), daemon.pid == pid {
        port = daemon.port
      } else if waitpid(pid, &status, WNOHANG) == pid {
        let lines = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n")
        throw failure("the daemon ended: \(lines?.last.map(String.init) ?? "see \(log.path)")")
      } else {
        usleep(20_000)
      }
    }
    Terminal.writeError(
      "fetcher: daemon started (process \(pid), port \(port ?? 0), log \(log.path))\n")
  }
}
