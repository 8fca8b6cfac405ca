import Foundation
import TestPorts
import Testing

/// `fetcher daemon` as aria2c's users drive it: aria2p (from PyPI) and curl's JSON-RPC as AriaNg
/// sends it, a `kill -9` in the middle, the command line as its client, and its limits.
@Suite(.serialized, .timeLimit(.minutes(10))) struct DaemonTests {
  /// A folder for the daemon's files, inside the state folder (removed with it).
  private func folder(in state: StateFolder) throws -> URL {
    let folder = state.url.appendingPathComponent("files", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// Starts `python3 arguments…`, a server that prints a line once it listens, and returns
  /// when it has.
  private func startPython(_ arguments: [String]) async throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = arguments
    let said = Pipe()
    process.standardOutput = said
    try process.run()
    _ = await onOwnThread { said.fileHandleForReading.availableData }
    return process
  }

  @Test func aria2pDrivesItAsItDrivesAria2c() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let folder = try folder(in: state)
    let daemon = try await RunningDaemon(state: state, folder: folder, secret: "s3cret")
    // The secret is neither in ps nor readable by others in daemon.json.
    let shown = try Data(
      contentsOf: URL(
        fileURLWithPath: "/proc/\(daemon.process.process.processIdentifier)/cmdline"))
    #expect(!String(decoding: shown, as: UTF8.self).contains("s3cret"))
    let daemonFile = try FileManager.default.attributesOfItem(
      atPath: state.url.appendingPathComponent("daemon.json").path)
    #expect((daemonFile[.posixPermissions] as? Int) == 0o600)
    let setup = try await runTool([Paths.root.appendingPathComponent("Tests/Daemon/setup.sh").path])
    try #require(setup.status == 0, "Tests/Daemon/setup.sh: \(setup.errors)")
    let python = Paths.root.appendingPathComponent(
      setup.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
    ).path
    let digest = try await server.sha256("done.bin", size: 300_000)
    let run = try await runTool([
      python, Paths.root.appendingPathComponent("Tests/Daemon/aria2p_client.py").path,
      String(daemon.port), "s3cret", server.rootURL, folder.path, digest,
    ])
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.outputText.contains(#""completed""#))
    let file = folder.appendingPathComponent("sub/renamed.bin")
    #expect(try await sha256(of: file) == digest)
    // The removed download left nothing behind, and the queue forgot it.
    #expect(
      !FileManager.default.fileExists(atPath: folder.appendingPathComponent("slow.bin.part").path))
    let list = try await state.fetcher.run("downloads", "--json")
    #expect(list.outputLines.count == 1, "\(list.standardOutput)")
    // `daemon stop` ends it, and says so.
    let stop = try await state.fetcher.run("daemon", "stop")
    #expect(stop.status == 0, "\(stop.standardError)")
    #expect(stop.standardError.contains("daemon stopped"))
    let ended = await daemon.process.wait()
    #expect(ended.status == 0)
    // Its log never shows the secret.
    #expect(!ended.standardError.contains("s3cret"), "\(ended.standardError)")
  }

  /// The calls of aria2's front ends (the rows of issue 70) made of this daemon and of aria2c
  /// by one script answer the same; Scripts/install.sh installs aria2c for it.
  @Test func theSameCallsAnswerAsAria2cAnswersThem() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let folder = try folder(in: state)
    let daemon = try await RunningDaemon(state: state, folder: folder, secret: "same")
    let script = Paths.root.appendingPathComponent("Tests/Daemon/same_calls.py").path
    let ours = try await runTool(
      ["/usr/bin/python3", script, String(daemon.port), "same", server.rootURL, folder.path])
    #expect(ours.status == 0, "\(ours.errors)")
    let theirFolder = state.url.appendingPathComponent("aria2c", isDirectory: true)
    try FileManager.default.createDirectory(at: theirFolder, withIntermediateDirectories: true)
    let port = try freePort()
    let aria2c = Process()
    aria2c.executableURL = URL(fileURLWithPath: "/usr/bin/aria2c")
    aria2c.arguments = [
      "--enable-rpc", "--rpc-listen-port=\(port)", "--rpc-secret=same", "--dir=\(theirFolder.path)",
      "-j", "5", "--quiet", "--no-conf",
    ]
    aria2c.standardOutput = FileHandle.nullDevice
    aria2c.standardError = FileHandle.nullDevice
    try aria2c.run()
    // aria2c started here keeps running after a SIGTERM.
    defer {
      kill(aria2c.processIdentifier, SIGKILL)
      aria2c.waitUntilExit()
    }
    let theirs = try await runTool(
      ["/usr/bin/python3", script, String(port), "same", server.rootURL, theirFolder.path])
    #expect(theirs.status == 0, "\(theirs.errors)")
    let (ourLines, theirLines) = (
      ours.outputText.split(separator: "\n"), theirs.outputText.split(separator: "\n")
    )
    #expect(ourLines.count == theirLines.count)
    for (our, their) in zip(ourLines, theirLines) { #expect(our == their) }
  }

  @Test func curlCallsAsAriaNgSendsThem() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let folder = try folder(in: state)
    let daemon = try await RunningDaemon(state: state, folder: folder, secret: "tok")
    let gid = try await daemon.call("aria2.addUri", [["\(server.rootURL)/files/one.bin?size=1000"]])
    #expect((gid as? String)?.count == 16)
    // AriaNg's refresh: one multicall of the lists and the stat.
    let multicall = try await daemon.post(
      #"{"jsonrpc":"2.0","method":"system.multicall","id":"ariang","params":[["#
        + #"{"methodName":"aria2.tellActive","params":["token:tok",["gid","status"]]},"#
        + #"{"methodName":"aria2.tellWaiting","params":["token:tok",0,1000,["gid"]]},"#
        + #"{"methodName":"aria2.tellStopped","params":["token:tok",0,1000,["gid","status"]]},"#
        + #"{"methodName":"aria2.getGlobalStat","params":["token:tok"]}]]}"#)
    let results = try #require((multicall as? [String: Any])?["result"] as? [Any])
    #expect(results.count == 4)
    #expect(results.allSatisfy { $0 is [Any] }, "\(results)")
    // A batch, a bad body, an unknown method, a wrong secret.
    let batch = try await daemon.post(
      #"[{"jsonrpc":"2.0","id":1,"method":"aria2.getVersion","params":["token:tok"]},"#
        + #"{"jsonrpc":"2.0","id":2,"method":"aria2.nothing","params":["token:tok"]}]"#)
    let answers = try #require(batch as? [[String: Any]])
    #expect((answers[0]["result"] as? [String: Any])?["version"] != nil)
    #expect(
      (answers[1]["error"] as? [String: Any])?["message"] as? String
        == "No such method: aria2.nothing")
    let unparsable = try await daemon.post("{not json") as? [String: Any]
    #expect((unparsable?["error"] as? [String: Any])?["code"] as? Int == -32700)
    let wrong = try await daemon.post(
      #"{"jsonrpc":"2.0","id":1,"method":"aria2.getGlobalStat","params":["token:nope"]}"#)
    #expect(
      ((wrong as? [String: Any])?["error"] as? [String: Any])?["message"] as? String
        == "Unauthorized")
    // A browser's preflight lets no page of another origin in, as aria2c's (without
    // --rpc-allow-origin-all).
    let preflight = try await runTool([
      "/usr/bin/curl", "-sS", "-i", "-X", "OPTIONS", "-H", "Origin: http://ariang.example",
      "-H", "Access-Control-Request-Method: POST", daemon.url,
    ])
    #expect(preflight.outputText.hasPrefix("HTTP/1.1 204"), "\(preflight.outputText)")
    #expect(!preflight.outputText.lowercased().contains("access-control-allow-origin"))
    // A body past 2 MiB is refused.
    let body = state.url.appendingPathComponent("large.json")
    try Data(count: 3 << 20).write(to: body)
    let large = try await runTool([
      "/usr/bin/curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--data-binary",
      "@\(body.path)", daemon.url,
    ])
    #expect(large.outputText == "413")
    // A folder outside the daemon's is refused with the reason.
    await #expect(throws: DaemonFailure.self) {
      try await daemon.call(
        "aria2.addUri", [["\(server.rootURL)/files/x.bin?size=10"], ["dir": "/etc"]])
    }
  }

  @Test func aDaemonKilledMidDownloadLeavesTheNextToFinishEveryFile() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let folder = try folder(in: state)
    let names = ["k1.bin", "k2.bin", "k3.bin"]
    do {
      let first = try await RunningDaemon(state: state, folder: folder)
      var ids: [String] = []
      for name in names {
        let digest = try await server.sha256(name, size: 4_000_000)
        let gid = try await first.call(
          "aria2.addUri",
          [
            ["\(server.rootURL)/files/\(name)?size=4000000&rate=500000"],
            ["checksum": "sha-256=\(digest)"],
          ])
        ids.append(String(try #require(gid as? String).suffix(8)))
      }
      // Bytes of each on disk, then the daemon dies at once (each takes 8 s: none is done
      // before the last has begun, on a loaded machine too).
      let watch = try state.fetcher.start(["downloads", "watch", "--json"])
      for id in ids {
        _ = await watch.readOutput(
          until: #""event":"progress","expectedBytes":4000000,"id":"\#(id)""#)
      }
      await first.process.kill()
      _ = await watch.wait()
    }
    let list = try await state.fetcher.run("downloads")
    #expect(
      list.outputLines.filter { $0.contains("interrupted") }.count == 3, "\(list.standardOutput)")
    let second = try await RunningDaemon(state: state, folder: folder)
    // The next daemon goes on with them; watching ends when none is under way.
    let watch = try await state.fetcher.run("downloads", "watch")
    #expect(watch.status == 0, "\(watch.standardError)")
    for name in names {
      let file = folder.appendingPathComponent(name)
      #expect(try await sha256(of: file) == (try await server.sha256(name, size: 4_000_000)))
    }
    _ = second
  }

  @Test func theCommandLineIsItsClient() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let folder = try folder(in: state)
    let daemon = try await RunningDaemon(state: state, folder: folder)
    let handed = try await state.fetcher.run(
      "download", "--background", "\(server.rootURL)/files/a.bin?size=1500000&rate=300000",
      "\(server.rootURL)/files/b.bin?size=1000")
    #expect(handed.status == 0, "\(handed.standardError)")
    let ids = handed.outputLines
    #expect(ids.count == 2 && ids.allSatisfy { $0.count == 8 }, "\(handed.standardOutput)")
    // A watcher killed while the daemon works takes nothing with it.
    let watcher = try state.fetcher.start(["downloads", "watch", "--json"])
    _ = await watcher.readOutput(until: #""state":"downloading""#)
    await watcher.kill()
    // Two clients at once see the same states: the command line and the RPC.
    let listed = try await state.fetcher.run("downloads", "--json")
    let statuses = try await daemon.call("aria2.tellStatus", ["00000000" + ids[0], ["status"]])
    #expect(listed.standardOutput.contains(ids[0]))
    #expect((statuses as? [String: Any])?["status"] as? String == "active")
    #expect(listed.outputLines.first { $0.contains(ids[0]) }?.contains("downloading") == true)
    let done = try await state.fetcher.run("downloads", "watch")
    #expect(done.status == 0, "\(done.standardError)")
    #expect(try Data(contentsOf: folder.appendingPathComponent("a.bin")).count == 1_500_000)
    // Cancel through the daemon forgets the result; the file stays.
    let cancel = try await state.fetcher.run("downloads", "cancel", ids[1])
    #expect(cancel.status == 0, "\(cancel.standardError)")
    let stopped = try await daemon.call("aria2.tellStopped", [0, 10, ["gid"]]) as? [Any]
    #expect(stopped?.count == 1)
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("b.bin").path))
  }

  @Test func dirAndOutInTheBackgroundMeanWhatTheyMeanForDownload() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let folder = try folder(in: state)
    let daemon = try await RunningDaemon(state: state, folder: folder)
    // The command runs in the state folder; the daemon writes to files/ below it.
    let fetcher = state.fetcher.working(in: state.url)
    let named = try await fetcher.run(
      "download", "--background", "\(server.rootURL)/files/x.bin?size=3000", "-o", "named.bin")
    #expect(named.status == 0, "\(named.standardError)")
    let elsewhere = try await fetcher.run(
      "download", "--background", "\(server.rootURL)/files/y.bin?size=2000", "-d", "other")
    #expect(elsewhere.status == 0, "\(elsewhere.standardError)")
    let watch = try await state.fetcher.run("downloads", "watch")
    #expect(watch.status == 0, "\(watch.standardError)")
    #expect(try Data(contentsOf: state.url.appendingPathComponent("named.bin")).count == 3000)
    #expect(try Data(contentsOf: state.url.appendingPathComponent("other/y.bin")).count == 2000)
    // A client over the port stays in the daemon's folder.
    await #expect {
      try await daemon.call(
        "aria2.addUri",
        [["\(server.rootURL)/files/z.bin?size=10"], ["dir": state.url.path, "out": "z.bin"]])
    } throws: { error in
      "\(error)".contains("outside the daemon's folder")
    }
  }

  @Test func theCommandLinePausesThroughIt() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let folder = try folder(in: state)
    let daemon = try await RunningDaemon(state: state, folder: folder)
    let gid = try await daemon.call(
      "aria2.addUri", [["\(server.rootURL)/files/p.bin?size=4000000&rate=200000"]])
    let id = String(try #require(gid as? String).suffix(8))
    let paused = try await state.fetcher.run("downloads", "pause", id)
    #expect(paused.status == 0, "\(paused.standardError)")
    #expect(paused.standardError == "fetcher: paused \(id) (p.bin)\n")
    let status = try await daemon.call(
      "aria2.tellStatus", [try #require(gid as? String), ["status"]])
    #expect((status as? [String: Any])?["status"] as? String == "paused")
    // Paused by the user, it is not interrupted; nothing else is under way.
    let list = try await state.fetcher.run("downloads")
    #expect(list.outputLines.first?.contains(" paused ") == true, "\(list.standardOutput)")
    let none = try await state.fetcher.run("downloads", "pause", id)
    #expect(none.status == 1)
    #expect(none.standardError == "fetcher: no download under way or waiting \(id)\n")
    let all = try await state.fetcher.run("downloads", "pause", "--all")
    #expect(all.standardError == "fetcher: paused 0 downloads\n")
  }

  @Test func aNameTakenByAFileIsRenamedAsAria2cDoes() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let folder = try folder(in: state)
    try Data("mine".utf8).write(to: folder.appendingPathComponent("taken.bin"))
    let daemon = try await RunningDaemon(state: state, folder: folder)
    _ = try await daemon.call(
      "aria2.addUri", [["\(server.rootURL)/files/taken.bin?size=1000"], ["out": "taken.bin"]])
    let watch = try await state.fetcher.run("downloads", "watch")
    #expect(watch.status == 0, "\(watch.standardError)")
    #expect(try Data(contentsOf: folder.appendingPathComponent("taken.bin")) == Data("mine".utf8))
    #expect(try Data(contentsOf: folder.appendingPathComponent("taken.1.bin")).count == 1000)
  }

  @Test func watchingFollowsDownloadsAddedWhileItWatches() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let folder = try folder(in: state)
    let daemon = try await RunningDaemon(state: state, folder: folder)
    // 4 s, then one of 8 s added once the watch is under way: it ends after the first.
    _ = try await daemon.call(
      "aria2.addUri", [["\(server.rootURL)/files/w1.bin?size=1000000&rate=250000"]])
    let watch = try state.fetcher.start(["downloads", "watch", "--json"])
    _ = await watch.readOutput(until: #""state":"downloading""#)
    let gid = try await daemon.call(
      "aria2.addUri", [["\(server.rootURL)/files/w2.bin?size=2000000&rate=250000"]])
    let id = String(try #require(gid as? String).suffix(8))
    let watched = await watch.wait()
    #expect(watched.status == 0, "\(watched.standardError)")
    #expect(watched.standardOutput.contains(#""id":"\#(id)""#), "\(watched.standardOutput)")
    // It ended only once the later download had: its file is whole.
    #expect(try Data(contentsOf: folder.appendingPathComponent("w2.bin")).count == 2_000_000)
    // The daemon's log (its standard error in the foreground) has a line per event.
    let log = await daemon.process.readError(until: "w2.bin, 1.9 MiB, in ")
    #expect(log.contains("\(id) added \(server.rootURL)/files/w2.bin"), "\(log)")
    #expect(log.contains("\(id) downloading"), "\(log)")
    #expect(log.contains("\(id) done \(folder.path)/w2.bin, 1.9 MiB, in "), "\(log)")
  }

  @Test func itsDownloadsGoThroughTheProxyItWasGiven() async throws {
    // server.py answers a proxy's absolute-form request by its path; the host in the URL does
    // not exist, so only the proxy can have answered.
    let proxy = try TestServer()
    let state = try StateFolder()
    let folder = try folder(in: state)
    let daemon = try await RunningDaemon(
      state: state, folder: folder, arguments: ["--proxy", proxy.rootURL])
    _ = try await daemon.call(
      "aria2.addUri", [["http://no-such-host.invalid/files/proxied.bin?size=2000"]])
    let watch = try await state.fetcher.run("downloads", "watch")
    #expect(watch.status == 0, "\(watch.standardError)")
    let status = try await daemon.call("aria2.tellStopped", [0, 1, ["status"]]) as? [[String: Any]]
    #expect(status?.first?["status"] as? String == "complete")
    #expect(try Data(contentsOf: folder.appendingPathComponent("proxied.bin")).count == 2000)
  }

  @Test func itsLimitsAndMistakesAreSaid() async throws {
    let state = try StateFolder()
    let folder = try folder(in: state)
    let open = try await state.fetcher.run(
      "daemon", "--rpc-listen-all", "--no-rpc-secret", "-d", folder.path)
    #expect(open.status == 64)
    #expect(open.standardError.contains("--rpc-listen-all needs a secret"))
    let empty = try await state.fetcher.run("daemon", "--rpc-secret", "", "-d", folder.path)
    #expect(empty.status == 64)
    #expect(empty.standardError.contains("an empty secret is none"))
    let noDaemon = try await state.fetcher.run("downloads", "watch")
    #expect(noDaemon.status == 1)
    #expect(noDaemon.standardError.contains("no daemon runs"))
    let background = try await state.fetcher.run(
      "download", "--background", "http://127.0.0.1:9/x")
    #expect(background.standardError.contains("no daemon runs"))
    let notCarried = try await state.fetcher.run(
      "download", "--background", "--max-size", "1M", "http://127.0.0.1:9/x")
    #expect(notCarried.standardError.contains("--max-size is not handed to the daemon"))
    let daemon = try await RunningDaemon(state: state, folder: folder)
    let second = try await state.fetcher.run(
      "daemon", "--rpc-listen-port", String(daemon.port + 1), "-d", folder.path)
    #expect(second.status == 1)
    #expect(second.standardError.contains("a daemon runs already on port \(daemon.port)"))
    // aria2.shutdown answers, then the daemon ends, and its place is free.
    #expect(try await daemon.call("aria2.shutdown") as? String == "OK")
    #expect(await daemon.process.wait().status == 0)
    let gone = try await state.fetcher.run("daemon", "stop")
    #expect(gone.standardError.contains("no daemon runs"))
  }

  /// G9: the command line talks to the daemon through its socket, so a listener another user
  /// put on the daemon's port (once free) is handed nothing: not the secret, not a download's
  /// credentials.
  @Test func theCommandLineNeverCallsThePort() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let folder = try folder(in: state)
    let daemon = try await RunningDaemon(state: state, folder: folder)
    let stolen = state.url.appendingPathComponent("stolen.txt")
    let port = try freePort()
    let listener = try await startPython(
      [
        "-c",
        """
        import socket, sys
        s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", \(port))); s.listen(5); print("listening", flush=True)
        while True:
            c, _ = s.accept(); c.settimeout(2)
            try: open(sys.argv[1], "ab").write(c.recv(65536))
            except OSError: pass
            c.close()
        """,
        stolen.path,
      ])
    // Its signals are blocked as the test's thread's are: only SIGKILL ends it.
    defer { kill(listener.processIdentifier, SIGKILL) }
    // daemon.json names the listener's port as the daemon's, as when another user took it.
    let file = state.url.appendingPathComponent("daemon.json")
    var named = try #require(
      JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    named["port"] = port
    try JSONSerialization.data(withJSONObject: named).write(to: file)
    let handed = try await state.fetcher.run(
      "download", "--background", "-u", "alice:AlicePW", "-H", "X-Api-Key: KEY777",
      "\(server.rootURL)/files/g9.bin?size=1000")
    #expect(handed.status == 0, "\(handed.standardError)")
    let listed = try await state.fetcher.run("downloads", "--json")
    #expect(listed.standardOutput.contains("g9.bin"))
    #expect((try? Data(contentsOf: stolen))?.isEmpty ?? true)
    _ = daemon
  }

  /// G3: descriptors running out (idle connections past the limit) stop nothing for good:
  /// once they go, the daemon answers again.
  @Test func itAnswersAgainOnceItsDescriptorsAreBack() async throws {
    let state = try StateFolder()
    let folder = try folder(in: state)
    let daemon = try await RunningDaemon(
      state: state, folder: folder, prefix: ["prlimit", "--nofile=128:128", "--"])
    let idle = try await runTool([
      "/usr/bin/python3", "-c",
      """
      import socket
      held = []
      for _ in range(200):
          try: held.append(socket.create_connection(("127.0.0.1", \(daemon.port)), timeout=2))
          except OSError: break
      print(len(held))
      """,
    ])
    #expect(idle.status == 0, "\(idle.errors)")
    #expect(try await daemon.call("aria2.getVersion") is [String: Any])
    let listed = try await state.fetcher.run("downloads", "list")
    #expect(listed.status == 0, "\(listed.standardError)")
  }

  /// G12 and G13: a detached daemon's arguments never hold the secret; its log is never opened
  /// through a link, and its folder is the owner's alone.
  @Test func aDetachedDaemonShowsNoSecretAndFollowsNoLink() async throws {
    let state = try StateFolder()
    let folder = try folder(in: state)
    let port = String(try freePort())
    let target = state.url.appendingPathComponent("rc-file")
    try Data("# a user's file\n".utf8).write(to: target)
    let log = state.url.appendingPathComponent("daemon.log")
    try FileManager.default.createSymbolicLink(at: log, withDestinationURL: target)
    let linked = try await state.fetcher.run(
      "daemon", "--detach", "--rpc-listen-port", port, "-d", folder.path)
    #expect(linked.status == 1)
    #expect(linked.standardError.contains("Too many levels of symbolic links"))
    #expect(try String(contentsOf: target, encoding: .utf8) == "# a user's file\n")
    try FileManager.default.removeItem(at: log)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: state.url.path)
    let started = try await state.fetcher.run(
      "daemon", "--detach", "--rpc-secret", "Hidden42", "--rpc-listen-port", port, "-d",
      folder.path)
    #expect(started.status == 0, "\(started.standardError)")
    let named = try #require(
      JSONSerialization.jsonObject(
        with: Data(contentsOf: state.url.appendingPathComponent("daemon.json"))) as? [String: Any])
    let pid = try #require(named["pid"] as? Int)
    let shown = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))
    #expect(!String(decoding: shown, as: UTF8.self).contains("Hidden42"))
    #expect(named["secret"] as? String == "Hidden42")
    let mode = try FileManager.default.attributesOfItem(atPath: state.url.path)[.posixPermissions]
    #expect(mode as? Int == 0o700)
    let secret = try await state.fetcher.run("daemon", "secret")
    #expect(secret.standardOutput == "Hidden42\n")
    let stop = try await state.fetcher.run("daemon", "stop")
    #expect(stop.status == 0, "\(stop.standardError)")
  }

  /// The daemon's own page in headless Chromium, driven as a user drives it, against nginx
  /// sending slowly (`Tests/Daemon/page_driver.py`): the address `daemon open` prints signs it
  /// in; a download added with the keyboard under a name made of markup shows that name as
  /// text; its progress moves; pause, resume, its limit and the global ones, a failure's cause,
  /// one added with a mirror, a checksum, a folder and a name, a reload that keeps the view,
  /// remove and clear; no script error and no refused policy.
  @Test func itsPageDrivesItInABrowser() async throws {
    let chromium = "/usr/bin/chromium-headless-shell"
    try #require(
      FileManager.default.isExecutableFile(atPath: chromium),
      "install Debian's chromium-headless-shell (apt-get install chromium-headless-shell)")
    let small = Data((0..<5000).map { UInt8($0 % 251) })
    let nginx = try NginxServer(
      files: ["slow.bin": Data(count: 3_000_000), "small.bin": small], rate: "150k")
    let state = try StateFolder()
    let folder = try folder(in: state)
    let daemon = try await RunningDaemon(state: state, folder: folder)
    let open = try await state.fetcher.run("daemon", "open", "--no-browser")
    #expect(open.status == 0, "\(open.standardError)")
    let address = open.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(address == "http://127.0.0.1:\(daemon.port)/#secret=\(try #require(daemon.secret))")
    let head = try await runTool(["/usr/bin/curl", "-sS", "-I", "http://127.0.0.1:\(daemon.port)/"])
    #expect(
      head.outputText.contains("Content-Security-Policy: default-src 'none'; script-src 'self'"))
    #expect(head.outputText.contains("Content-Type: text/html"))
    let setup = try await runTool([Paths.root.appendingPathComponent("Tests/Daemon/setup.sh").path])
    try #require(setup.status == 0, "Tests/Daemon/setup.sh: \(setup.errors)")
    let python = Paths.root.appendingPathComponent(
      setup.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
    ).path
    let digest = try await sha256(of: nginx.folder.appendingPathComponent("www/small.bin"))
    let run = try await runTool([
      python, Paths.root.appendingPathComponent("Tests/Daemon/page_driver.py").path, chromium,
      address, "\(nginx.rootURL)/slow.bin", "\(nginx.rootURL)/missing.bin", "--checked",
      "\(nginx.rootURL)/small.bin", digest,
    ])
    #expect(run.status == 0, "\(run.outputText)\(run.errors)")
    #expect(run.outputText.contains("ok: no script error, no refused policy"), "\(run.outputText)")
    // The checked one is in its folder under its name; the removed one left no file.
    let checked = folder.appendingPathComponent("sub/checked.bin")
    #expect(try Data(contentsOf: checked) == small)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["sub"])
    #expect((try await daemon.call("aria2.tellStopped", [0, 10]) as? [Any])?.isEmpty == true)
  }

  /// `--no-web-page` serves the RPC only, for those who run AriaNg; the page is never served to
  /// a request addressed to another host name (DNS rebinding), as the RPC is not.
  @Test func itsPageIsOffOnRequestAndForOtherHostNames() async throws {
    let state = try StateFolder()
    let folder = try folder(in: state)
    let page = "http://127.0.0.1:%d/"
    do {
      let daemon = try await RunningDaemon(state: state, folder: folder)
      let rebound = try await runTool([
        "/usr/bin/curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: evil.test",
        String(format: page, daemon.port),
      ])
      #expect(rebound.outputText == "403")
      _ = try await state.fetcher.run("daemon", "stop")
      _ = await daemon.process.wait()
    }
    let daemon = try await RunningDaemon(state: state, folder: folder, arguments: ["--no-web-page"])
    let answer = try await runTool([
      "/usr/bin/curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}",
      String(format: page, daemon.port),
    ])
    #expect(answer.outputText == "404")
    let open = try await state.fetcher.run("daemon", "open")
    #expect(open.status == 1)
    #expect(open.standardError.contains("the daemon serves no page (--no-web-page)"))
    #expect(try await daemon.call("aria2.getVersion") is [String: Any])
  }

  /// G1, G5, G6, G7 and G14 from a page of another origin in headless Chromium, over HTTP and
  /// WebSocket: it starts no download, reads nothing, and holds up no authorised call.
  @Test func aPageOfAnotherOriginCanNeitherDriveNorReadIt() async throws {
    let chromium = "/usr/bin/chromium-headless-shell"
    try #require(
      FileManager.default.isExecutableFile(atPath: chromium),
      "install Debian's chromium-headless-shell (apt-get install chromium-headless-shell)")
    let server = try TestServer()
    let state = try StateFolder()
    let folder = try folder(in: state)
    let daemon = try await RunningDaemon(state: state, folder: folder)
    let report = state.url.appendingPathComponent("report.txt")
    let pagePort = try freePort()
    let pages = try await startPython([
      Paths.root.appendingPathComponent("Tests/Daemon/page_server.py").path, String(pagePort),
      Paths.root.appendingPathComponent("Tests/Daemon").path, report.path,
    ])
    defer { kill(pages.processIdentifier, SIGKILL) }
    let target = "\(server.rootURL)/files/page.bin?size=1000"
    let page =
      "http://evil.test:\(pagePort)/foreign_page.html?rpc=\(daemon.url)&target="
      + (target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    let browsed = try await runTool([
      chromium, "--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP evil.test 127.0.0.1",
      "--dump-dom", page,
    ])
    #expect(browsed.status == 0, "\(browsed.errors)")
    let outcomes = try String(contentsOf: report, encoding: .utf8)
    #expect(outcomes.contains("done: 1"), "\(outcomes)")
    // Nothing read (no Access-Control-Allow-Origin).
    #expect(!outcomes.contains("read 200"), "\(outcomes)")
    // Over WebSocket: a message past 2 MiB closed with 1009; a guess and deep nesting answered
    // with an error at once.
    #expect(outcomes.contains("ws big: closed 1009 heard \n"), "\(outcomes)")
    #expect(
      outcomes.contains(
        #"ws guess: closed 1000 heard {"error":{"code":1,"message":"Unauthorized"}"#), "\(outcomes)"
    )
    #expect(
      outcomes.contains(#"ws deep: closed 1000 heard {"error":{"code":-32700"#), "\(outcomes)")
    // No download began, and the owner is answered.
    #expect((try await daemon.call("aria2.tellWaiting", [0, 10]) as? [Any])?.isEmpty == true)
    #expect((try await daemon.call("aria2.tellStopped", [0, 10]) as? [Any])?.isEmpty == true)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
  }
}
