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
  /// its log's last line when it ends first. `secret` goes to it in its environment, never
  /// in its arguments, where any user's `ps` would show it.
  static func start(secret: String?) throws {
    let log = Directories.state.appendingPathComponent("daemon.log")
    try StateFolder.makePrivate()
    // Never through a link: another user's, or one that sends the log over a file of ours.
    let logDescriptor = open(
      log.path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard logDescriptor >= 0 else {
      throw failure("cannot open \(log.path): \(String(cString: strerror(errno)))")
    }
    defer { close(logDescriptor) }
    var arguments: [String] = []
    var given = CommandLine.arguments.dropFirst()[...]
    while let argument = given.popFirst() {
      if argument == "--detach" || argument == "-D" || argument.hasPrefix("--rpc-secret=") {
        continue
      }
      if argument == "--rpc-secret" {
        _ = given.popFirst()
        continue
      }
      arguments.append(argument)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, logDescriptor, 2)
    closeOnSpawn()
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // POSIX_SPAWN_SETSID, glibc's value, which Swift does not import: a new session, which
    // no terminal's hang-up reaches.
    posix_spawnattr_setflags(&attributes, 0x80)
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    var environment = ProcessInfo.processInfo.environment
    environment["FETCHER_RPC_SECRET"] = secret
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for argument in argv + envp { free(argument) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
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

  /// Marks every descriptor past standard error close-on-exec, so that the daemon holds none
  /// of this process's: one its launcher left open (Foundation's `Process` keeps a socket in
  /// its children to see them end, a supervisor a pipe) would otherwise wait on the daemon.
  private static func closeOnSpawn() {
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
      let flags = fcntl(descriptor, F_GETFD)
      if flags >= 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
    }
  }
}
