import ArgumentParser
import Daemon
import DownloadClient
import DownloadFeature
import DownloadRPCService
import Foundation
import StoreLive

/// `fetcher daemon`: the download manager as a long-running process that speaks aria2's
/// JSON-RPC, and `fetcher daemon stop`.
struct DaemonCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "daemon",
    abstract: "Run the download manager in the background, driven by aria2's JSON-RPC.",
    discussion: """
      Serves aria2's JSON-RPC 2.0 at http://127.0.0.1:6800/jsonrpc (POST) and over WebSocket \
      at the same address, with its notifications, so that aria2's front ends and libraries \
      (AriaNg, aria2p) drive it. It owns the same queue as the download command: downloads \
      that were queued or running when it last stopped go on at once. While it runs, \
      download --background and downloads list, resume and cancel go through it, over a \
      socket in the state folder that only its owner can open. Every call needs the secret, \
      random unless --rpc-secret gives one: fetcher daemon secret prints it for a front end. \
      Its own page, at http://127.0.0.1:6800/, shows the downloads in a browser: fetcher \
      daemon open opens it with the secret.
      """,
    subcommands: [Start.self, Stop.self, Secret.self, Open.self],
    defaultSubcommand: Start.self)
}

extension DaemonCommand {
  struct Start: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Start the daemon (in the foreground, for systemd, unless --detach).")

    @Option(name: .customLong("rpc-listen-port"), help: "The port of the RPC.")
    var port: UInt16 = 6800

    @Option(
      name: .customLong("rpc-secret"),
      help: ArgumentHelp(
        "The secret each call must give as its first parameter, token:SECRET.",
        discussion: """
          Without it the daemon makes a random one (fetcher daemon secret prints it). Blanked \
          from ps once read; or give it in FETCHER_RPC_SECRET.
          """,
        valueName: "secret"))
    var secret: String?

    @Flag(
      name: .customLong("no-rpc-secret"),
      help: "Take calls without a secret (then only pages of its own origin may call).")
    var noSecret = false

    @Flag(
      name: .customLong("rpc-listen-all"),
      help: "Listen on every interface, not only on loopback, and answer any Host.")
    var listenAll = false

    @Flag(
      name: .customLong("rpc-allow-origin-all"),
      help: "Let web pages of any origin read the answers (for AriaNg served from elsewhere).")
    var allowOriginAll = false

    @Flag(
      name: .customLong("no-web-page"),
      help: "Serve no page at / (for those who run AriaNg): only the RPC.")
    var noWebPage = false

    @Flag(
      name: .customLong("rpc-allow-any-dir"),
      help: "Let clients write anywhere the daemon may (dir and out outside --dir).")
    var anyFolder = false

    @Option(name: [.customShort("d"), .customLong("dir")], help: "The folder to write to.")
    var dir = "."

    @Flag(
      inversion: .prefixedNo,
      help: ArgumentHelp(
        "Write a new download whose file exists to file.1.ext (file.2.ext, …), as aria2c does.",
        discussion: "On by default, as aria2c's; without it such a download is refused."))
    var autoFileRenaming = true

    @Option(
      name: [.customShort("j"), .customLong("max-concurrent-downloads")],
      help: "Downloads at once; the rest wait in order.")
    var concurrency = 5

    @Option(
      name: .customLong("max-overall-download-limit"),
      help: ArgumentHelp(
        "The most bytes a second all downloads together receive (K, M as 500K, 2M).",
        valueName: "rate"))
    var overallLimit: ByteCount?

    @Option(name: .shortAndLong, help: "Connections per file, for servers that take ranges.")
    var split = 1

    @Option(help: "Retries of a failed attempt (transport errors, timeouts, 408, 429, 5xx).")
    var retries = 3

    @Option(help: "Seconds without any data before an attempt fails and is retried.")
    var timeout = 60

    @Flag(
      name: [.customShort("D"), .customLong("detach")],
      help: "Run in the background, its log in daemon.log in the state folder.")
    var detach = false

    @Flag(name: .shortAndLong, help: "Log retries and requests on standard error.")
    var verbose = false

    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
      if secret == "" {
        throw ValidationError(
          "--rpc-secret: an empty secret is none; leave the option out for a random one")
      }
      if noSecret, rpcSecret != nil {
        throw ValidationError("--no-rpc-secret and --rpc-secret: choose one")
      }
      if noSecret, listenAll {
        throw ValidationError(
          "--rpc-listen-all needs a secret: any host could otherwise drive the daemon")
      }
      guard concurrency > 0 else { throw ValidationError("-j takes a number from 1") }
      guard split > 0 else { throw ValidationError("--split takes a number from 1") }
    }

    /// The secret given, from the option or the environment.
    var rpcSecret: String? {
      secret
        ?? ProcessInfo.processInfo.environment["FETCHER_RPC_SECRET"].flatMap {
          $0.isEmpty ? nil : $0
        }
    }

    /// A random secret of 128 bits, as 32 hexadecimal digits.
    static func randomSecret() -> String {
      var generator = SystemRandomNumberGenerator()
      return (0..<2).map { _ in
        let word = String(generator.next() as UInt64, radix: 16)
        return String(repeating: "0", count: 16 - word.count) + word
      }.joined()
    }

    func run() async throws {
      if detach { return try Detached.start(secret: rpcSecret) }
      let claim = try DaemonFile.claim()
      let secret = noSecret ? nil : rpcSecret ?? Self.randomSecret()
      let folder = URL(fileURLWithPath: dir, isDirectory: true).standardizedFileURL
      var configuration = DownloadConfiguration(
        outputDirectory: folder, maxRetries: retries, requestTimeout: .seconds(timeout),
        maxConcurrentDownloads: concurrency,
        userAgent: "fetcher/" + Fetcher.configuration.version)
      configuration.maxBytesPerSecond = overallLimit?.bytes
      configuration.segments = split
      configuration.resumesInterrupted = true
      configuration.autoFileRenaming = autoFileRenaming
      configuration.log = LogSink(level: verbose ? .debug : .info) { _, line in
        DaemonLog.write(line)
      }
      // Its downloads go through the proxy and trust the certificates given here.
      let client = AppEnvironment.live(http: connection.httpClient()).downloads(configuration)
      // A line for each download's events, beside the engine's own.
      let events = client.events()
      Task {
        var lines = DownloadLogLines<ContinuousClock.Instant>()
        for await event in events {
          if let line = lines.line(for: event, at: .now) { DaemonLog.write(line) }
        }
      }
      var settings = Aria2Service.Settings(
        folder: folder, secret: secret, version: Fetcher.configuration.version)
      settings.anyFolder = anyFolder
      settings.globalOptions = [
        "max-concurrent-downloads": String(concurrency),
        "max-overall-download-limit": String(overallLimit?.bytes ?? 0),
        "max-overall-upload-limit": "0", "enable-rpc": "true", "rpc-listen-port": String(port),
        "rpc-listen-all": String(listenAll), "rpc-allow-origin-all": String(allowOriginAll),
        "rpc-secure": "false", "max-download-result": "1000",
      ]
      settings.downloadOptions = [
        "split": String(split), "max-connection-per-server": String(split),
        "min-split-size": "1048576", "max-download-limit": "0", "max-upload-limit": "0",
        "max-tries": String(retries + 1), "timeout": String(timeout),
        "auto-file-renaming": String(autoFileRenaming), "allow-overwrite": "false",
        "continue": "true", "always-resume": "true", "user-agent": configuration.userAgent,
        "check-certificate": String(!connection.insecure), "dry-run": "false",
      ]
      if let proxy = connection.proxy { settings.downloadOptions["all-proxy"] = proxy }
      if let cacert = connection.cacert { settings.globalOptions["ca-certificate"] = cacert }
      let stopping = AsyncStream<Void>.makeStream()
      // In place before any download starts and before `fetcher daemon stop` can find this
      // process, so that every SIGINT and SIGTERM stops it in order.
      let signals = await Signals.stream([SIGINT, SIGTERM])
      Task {
        for await _ in signals { stopping.continuation.yield() }
      }
      let service = Aria2Service(client: client, settings: settings) {
        stopping.continuation.yield()
      }
      var access = RPCServer.Access()
      access.listenAll = listenAll
      access.allowOriginAll = allowOriginAll
      access.hasSecret = secret != nil
      access.webPage = !noWebPage
      let server = RPCServer(
        service: service, port: port, socket: DaemonFile.socket, access: access)
      await service.start()
      let listening: UInt16
      do {
        listening = try await server.start()
      } catch {
        await server.stop()
        throw failure("cannot listen on port \(port): \(error)")
      }
      let file = DaemonFile(pid: getpid(), port: listening, secret: secret, webPage: !noWebPage)
      try file.write(to: claim)
      DaemonLog.write(
        "listening on \(listenAll ? "every interface" : "127.0.0.1"), port \(listening), "
          + "writing to \(folder.path); "
          + (secret == nil
            ? "no secret: any program of this machine may drive it"
            : "front ends need its secret (fetcher daemon secret prints it)"))
      if !noWebPage {
        // The secret only to a terminal, not to a journal or a log file.
        let shown =
          Terminal.isTerminal(Terminal.standardError)
          ? file.pageAddress : "http://127.0.0.1:\(listening)/ (fetcher daemon open opens it)"
        DaemonLog.write("its page: \(shown)")
      }
      for await _ in stopping.stream { break }
      DaemonLog.write("stopping")
      await server.stop()
      await service.stop()
      try? FileManager.default.removeItem(at: DaemonFile.location)
    }
  }

  struct Secret: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print the running daemon's RPC secret, for a front end (AriaNg, aria2p).")

    func run() throws {
      guard let daemon = DaemonFile.running() else { throw failure("no daemon runs") }
      guard let secret = daemon.secret else {
        throw failure("the daemon takes calls without a secret (--no-rpc-secret)")
      }
      print(secret)
    }
  }

  struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print the address of the daemon's page, with its secret, and open it.",
      discussion: """
        The secret is in the address's fragment, which the browser keeps for the tab and never \
        sends. In a desktop session the page opens in the browser (xdg-open), through a file \
        of this user's, so that the secret is in no program's arguments.
        """)

    @Flag(name: .customLong("no-browser"), help: "Only print the address.")
    var noBrowser = false

    func run() throws {
      guard let daemon = DaemonFile.running() else { throw failure("no daemon runs") }
      guard daemon.webPage ?? false else {
        throw failure("the daemon serves no page (--no-web-page)")
      }
      print(daemon.pageAddress)
      let environment = ProcessInfo.processInfo.environment
      guard !noBrowser, environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil,
        let opener = DownloadHooks.executable("xdg-open")
      else { return }
      // A page that sends the browser on to the address, readable by this user only.
      let redirect = Directories.state.appendingPathComponent("page.html")
      let address = daemon.pageAddress.replacingOccurrences(of: "\"", with: "%22")
      FileManager.default.createFile(
        atPath: redirect.path,
        contents: Data(
          "<!doctype html><meta http-equiv=\"refresh\" content=\"0;url=\(address)\">".utf8),
        attributes: [.posixPermissions: 0o600])
      let process = Process()
      process.executableURL = opener
      process.arguments = [redirect.path]
      try process.run()
    }
  }

  struct Stop: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Stop the running daemon.")

    func run() async throws {
      guard let daemon = DaemonFile.running() else {
        throw failure("no daemon runs")
      }
      guard kill(daemon.pid, SIGTERM) == 0 else {
        throw failure("cannot stop process \(daemon.pid): \(String(cString: strerror(errno)))")
      }
      // Its lock goes when it has stopped.
      while DaemonFile.running() != nil {
        try await Task.sleep(for: .milliseconds(50))
      }
      Terminal.writeError("fetcher: daemon stopped (process \(daemon.pid))\n")
    }
  }
}

/// The daemon's log lines, on standard error with the time, as journald and daemon.log keep
/// them.
enum DaemonLog {
  static func write(_ line: String) {
    let time = Date().formatted(.iso8601)
    Terminal.writeError("\(time) \(line.printable)\n")
  }
}
