import Foundation
import Testing

/// `fetcher download` against server.py's files and fault knobs. Every file is checked
/// against the SHA-256 the server computes.
@Suite(.serialized, .timeLimit(.minutes(10))) struct DownloadTests {
  /// Starts downloading `url` and kills fetcher with SIGKILL once bytes have arrived.
  private func killMidDownload(_ url: String, state: StateFolder) async throws {
    let running = try state.fetcher.start(["download", url, "-d", state.url.path, "--json"])
    _ = await running.readOutput(until: #""event":"progress""#)
    await running.kill()
  }

  private func requests(in run: FetcherRun) -> [String] {
    run.standardError.split(separator: "\n").filter { $0.contains(": GET ") }.map(String.init)
  }

  /// `--checksum` with each of aria2c's types: coreutils' digest of the same bytes (fetched
  /// with curl) passes; a wrong one fails naming the type and leaves no file, but keeps the
  /// bytes in the part file (as aria2c keeps its), which a retry checks again.
  @Test(arguments: [("md5", "md5sum"), ("sha-1", "sha1sum"), ("sha-512", "sha512sum")])
  func aChecksumOfEachTypeIsChecked(type: String, tool: String) async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let url = "\(server.rootURL)/files/sum.bin?size=300000"
    let copy = state.url.appendingPathComponent("curl.bin").path
    #expect(try await runTool(["/usr/bin/curl", "-s", "-o", copy, url]).status == 0)
    let digest = try await runTool(["/usr/bin/\(tool)", copy]).outputText.prefix { $0 != " " }
    let good = try await state.fetcher.run(
      "download", url, "-d", state.url.path, "-q", "--checksum", "\(type)=\(digest)")
    #expect(good.status == 0, "\(good.standardError)")
    let saved = state.url.appendingPathComponent("sum.bin")
    #expect(try Data(contentsOf: saved) == Data(contentsOf: URL(fileURLWithPath: copy)))

    try FileManager.default.removeItem(at: saved)
    let wrong = String(repeating: "0", count: digest.count)
    let bad = try await state.fetcher.run(
      "download", url, "-d", state.url.path, "-q", "--force", "--checksum", "\(type)=\(wrong)")
    #expect(bad.status == 32)
    #expect(bad.standardError.contains("\(type.uppercased()) mismatch: expected \(wrong)"))
    #expect(!FileManager.default.fileExists(atPath: saved.path))
    let part = state.url.appendingPathComponent("sum.bin.part")
    #expect(try Data(contentsOf: part) == Data(contentsOf: URL(fileURLWithPath: copy)))
    #expect(bad.standardError.contains("the bytes are kept in \(part.path)"))
    let listed = try await state.fetcher.run("downloads", "list", "--json")
    let failed = listed.standardOutput.split(separator: "\n").first { $0.contains("\"failed\"") }
    let id = try #require(failed?.split(separator: "\"").drop { $0 != "id" }.dropFirst(2).first)
    let again = try await state.fetcher.run("downloads", "resume", String(id), "-q")
    #expect(again.status == 32, "\(again.standardError)")
    #expect(again.standardError.contains("\(type.uppercased()) mismatch: expected \(wrong)"))
  }

  /// A device is never replaced by a file: `download -o` refuses one (even with `--force`),
  /// and `analyze --html` or `--partial-out` write into it, as `> /dev/null` does. The device
  /// is a copy of /dev/null made in the test's folder, so that a failure never harms the real
  /// one.
  @Test func aDeviceIsWrittenToNeverReplaced() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let device = state.url.appendingPathComponent("null").path
    #expect(try await runTool(["/usr/bin/mknod", device, "c", "1", "3"]).status == 0)
    let isDevice = {
      try FileManager.default.attributesOfItem(atPath: device)[.type] as? FileAttributeType
        == .typeCharacterSpecial
    }
    let download = try await state.fetcher.run(
      "download", "\(server.rootURL)/files/x.bin?size=1000", "-o", device, "--force", "-q")
    #expect(download.status == 17)
    #expect(download.standardError.contains("\(device) is no regular file"))
    #expect(try isDevice())
    let log = state.url.appendingPathComponent("access.log")
    try Data(
      #"10.0.0.1 - - [01/Jul/1995:00:00:01 -0400] "GET /a HTTP/1.0" 200 100"#.utf8
    ).write(to: log)
    for output in ["--html", "--partial-out"] {
      let analyze = try await state.fetcher.run("analyze", log.path, output, device)
      #expect(analyze.status == 0, "\(analyze.standardError)")
      #expect(try isDevice(), "\(output)")
    }
  }

  /// `-R` gives the file the server's Last-Modified, as `curl -R` does with the same file.
  @Test func remoteTimeGivesTheFileTheServersTimeAsCurlDoes() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let url = "\(server.rootURL)/files/dated.bin?size=5000"
    let copy = state.url.appendingPathComponent("curl.bin").path
    #expect(try await runTool(["/usr/bin/curl", "-s", "-R", "-o", copy, url]).status == 0)
    let run = try await state.fetcher.run("download", url, "-d", state.url.path, "-q", "-R")
    #expect(run.status == 0, "\(run.standardError)")
    let time = { (path: String) in
      try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    }
    let curls = try time(copy)
    #expect(curls?.timeIntervalSince1970 == 1_700_000_000)
    #expect(try time(state.url.appendingPathComponent("dated.bin").path) == curls)
  }

  @Test func aConnectionDroppedEveryMiBStillCompletes() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let size = 5_000_000
    let expected = try await server.sha256("drop.bin", size: size)
    let run = try await state.fetcher.run(
      "download", "\(server.rootURL)/files/drop.bin?size=\(size)&drop_after=1048576",
      "-d", state.url.path, "--sha256", expected, "-v")
    #expect(run.status == 0, "\(run.standardError)")
    #expect(try await sha256(of: state.url.appendingPathComponent("drop.bin")) == expected)
    let resumed = requests(in: run).dropFirst()
    #expect(resumed.count == 4)
    #expect(resumed.allSatisfy { !$0.hasSuffix("from byte 0") })
  }

  @Test func aKilledDownloadResumesWithARangeRequest() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let size = 1_500_000
    let expected = try await server.sha256("kill.bin", size: size)
    let url = "\(server.rootURL)/files/kill.bin?size=\(size)&rate=1000000"
    try await killMidDownload(url, state: state)
    let part = state.url.appendingPathComponent("kill.bin.part")
    let kept = try FileManager.default.attributesOfItem(atPath: part.path)[.size] as? Int ?? 0
    #expect(kept > 0)

    let second = try await state.fetcher.run(
      "download", url, "-d", state.url.path, "--sha256", expected, "-v")
    #expect(second.status == 0, "\(second.standardError)")
    let resumedFrom = requests(in: second).first?.split(separator: " ").last.flatMap { Int($0) }
    #expect(try #require(resumedFrom) >= kept)
    #expect(try await sha256(of: state.url.appendingPathComponent("kill.bin")) == expected)
  }

  /// A loopback server killed mid-transfer refuses connects: the machine is online, so the
  /// drop and the refusals are retries (not a wait for the network), and a server back
  /// within them gets the download resumed from the bytes on disk.
  @Test func aServerThatGoesAwayAndComesBackWithinTheRetriesResumes() async throws {
    var server = try TestServer()
    let state = try StateFolder()
    let size = 1_500_000
    let expected = try await server.sha256("gone.bin", size: size)
    let url = "\(server.rootURL)/files/gone.bin?size=\(size)&rate=500000"
    let running = try state.fetcher.start([
      "download", url, "-d", state.url.path, "--retries", "5", "--sha256", expected, "-v",
    ])
    _ = await running.readOutput(until: " progress ")
    server.stop()
    let before = await running.readError(until: "; retry 1 in ")
    server = try TestServer(port: server.port)
    let run = await running.wait()
    #expect(run.status == 0, "\(before)\(run.standardError)")
    #expect(!(before + run.standardError).contains("waiting for the network"))
    let resumedFrom = requests(in: run).last?.split(separator: " ").last.flatMap { Int($0) }
    #expect(try #require(resumedFrom) > 0)
    #expect(try await sha256(of: state.url.appendingPathComponent("gone.bin")) == expected)
  }

  /// A machine that goes offline (its only links beyond loopback go down, and the server with
  /// them) waits for the network without spending a retry, and resumes once it is back.
  @Test(.enabled(if: NetworkNamespace.canBeMade, "needs root for a network namespace"))
  func anOfflineMachineWaitsForTheNetworkAndResumes() async throws {
    let checksums = try TestServer()
    let size = 1_500_000
    let expected = try await checksums.sha256("offline.bin", size: size)
    let namespace = try NetworkNamespace()
    var server = try TestServer(host: namespace.serverAddress, port: 0, inside: namespace)
    let state = try StateFolder()
    let url = "\(server.rootURL)/files/offline.bin?size=\(size)&rate=500000"
    let running = try state.fetcher.inside(namespace).start([
      "download", url, "-d", state.url.path, "--retries", "0", "--sha256", expected, "-v",
    ])
    _ = await running.readOutput(until: " progress ")
    try namespace.setLinks(up: false)
    server.stop()
    let before = await running.readError(until: "waiting for the network")
    // The server first: the network's return alone would make a refused attempt, a retry.
    server = try TestServer(host: namespace.serverAddress, port: server.port, inside: namespace)
    try namespace.setLinks(up: true)
    let run = await running.wait()
    #expect(run.status == 0, "\(before)\(run.standardError)")
    #expect(run.standardError.contains("the host is reachable again"))
    let resumedFrom = requests(in: run).last?.split(separator: " ").last.flatMap { Int($0) }
    #expect(try #require(resumedFrom) > 0)
    #expect(try await sha256(of: state.url.appendingPathComponent("offline.bin")) == expected)
  }

  /// The issue's case: a server that dies mid-transfer and stays down ends the download
  /// after the retries (curl exits 18, wget 4, aria2c 1), keeping the part file; it was
  /// "waiting for network" for up to the total time limit.
  @Test func aServerThatDiesAndStaysDownFailsAfterTheRetries() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let url = "\(server.rootURL)/files/dead.bin?size=1500000&rate=500000"
    let running = try state.fetcher.start([
      "download", url, "-d", state.url.path, "--retries", "1", "-v",
    ])
    _ = await running.readOutput(until: " progress ")
    server.stop()
    let run = await running.wait()
    #expect(run.status == 1)
    #expect(run.standardError.contains("; retry 1 in "), "\(run.standardError)")
    #expect(!run.standardError.contains("waiting for the network"))
    #expect(run.standardError.contains("Couldn't connect to server"), "\(run.standardError)")
    #expect(
      FileManager.default.fileExists(atPath: state.url.appendingPathComponent("dead.bin.part").path)
    )
  }

  @Test func ctrlCPausesAndTheSameCommandResumes() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let size = 1_500_000
    let expected = try await server.sha256("int.bin", size: size)
    let url = "\(server.rootURL)/files/int.bin?size=\(size)&rate=1000000"
    let first = try state.fetcher.start(["download", url, "-d", state.url.path])
    _ = await first.readOutput(until: " progress ")
    kill(first.process.processIdentifier, SIGINT)
    let interrupted = await first.wait()
    #expect(interrupted.status == 130)
    #expect(interrupted.standardError.contains("paused; run the same command again to resume"))
    let list = try await state.fetcher.run("downloads", "list")
    #expect(list.standardOutput.contains("  paused  "))

    let second = try await state.fetcher.run(
      "download", url, "-d", state.url.path, "--sha256", expected, "-v")
    #expect(second.status == 0, "\(second.standardError)")
    #expect(requests(in: second).first?.hasSuffix("from byte 0") == false)
    #expect(try await sha256(of: state.url.appendingPathComponent("int.bin")) == expected)
  }

  /// The issue's case: through a pipe, `downloads resume` said a download was downloading,
  /// then queued, then downloading again. Each state is said once, in order.
  @Test func aResumedDownloadSaysEachStateOnceThroughAPipe() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let url = "\(server.rootURL)/files/again.bin?size=1500000&rate=1000000"
    let first = try state.fetcher.start(["download", url, "-d", state.url.path])
    _ = await first.readOutput(until: " progress ")
    kill(first.process.processIdentifier, SIGINT)
    #expect(await first.wait().status == 130)

    let resumed = try await state.fetcher.run("downloads", "resume", "--all")
    #expect(resumed.status == 0, "\(resumed.standardError)")
    let states = resumed.outputLines.map { $0.split(separator: " ")[1] }
      .filter { $0 != "progress" }
    #expect(states == ["queued", "downloading", "done"], "\(resumed.outputLines)")
  }

  /// Ctrl-C with 4 of 30 downloads under way pauses them all and starts none: a slot that a
  /// paused download frees is not given to the next one (each would leave a part file).
  @Test func ctrlCWithAQueueStartsNoOtherDownload() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let list = state.url.appendingPathComponent("list.txt")
    let urls = (1...30).map { "\(server.rootURL)/files/q\($0).bin?size=2000000&rate=200000" }
    try Data(urls.joined(separator: "\n").utf8).write(to: list)
    let out = state.url.appendingPathComponent("out")
    let running = try state.fetcher.start([
      "download", "-i", list.path, "-d", out.path, "--concurrency", "4",
    ])
    _ = await running.readOutput(until: " progress ")
    kill(running.process.processIdentifier, SIGINT)
    let interrupted = await running.wait()
    #expect(interrupted.status == 130)
    let files = try FileManager.default.contentsOfDirectory(atPath: out.path)
    #expect(files.count <= 4, "\(files.sorted())")
    let paused = try await state.fetcher.run("downloads", "list")
    #expect(paused.outputLines.count == 30)
    #expect(paused.outputLines.allSatisfy { $0.contains("  paused  ") }, "\(paused.outputLines)")
  }

  /// The issue's case: a download that failed under `--max-size 100K` is resumed by
  /// `downloads resume`, which was given no limit: the download's own holds.
  @Test func aResumeKeepsTheLimitsTheDownloadWasGiven() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let url = "\(server.rootURL)/files/big.bin?size=512000"
    let first = try await state.fetcher.run(
      "download", url, "-d", state.url.path, "--max-size", "100K")
    #expect(first.status == 1)
    #expect(first.standardError.contains("larger than the limit of 100 KiB"))
    let resumed = try await state.fetcher.run("downloads", "resume", "--all")
    #expect(resumed.status == 1, "\(resumed.standardError)")
    #expect(resumed.standardError.contains("larger than the limit of 100 KiB"))
    #expect(
      !FileManager.default.fileExists(atPath: state.url.appendingPathComponent("big.bin").path))
  }

  /// Through a pipe as on a terminal: event lines on standard output, the summary on standard
  /// error, in the units sizes are given in.
  @Test func thePipeGetsTheSummaryATerminalGets() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let run = try await state.fetcher.run(
      "download", "\(server.rootURL)/files/s.bin?size=1048576", "-d", state.url.path)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.hasPrefix("1 file, 1.0 MiB in "), "\(run.standardError)")
    #expect(!run.standardOutput.contains(" in "))
  }

  @Test func a503TwiceThenSuccess() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let expected = try await server.sha256("busy.bin", size: 100_000)
    let run = try await state.fetcher.run(
      "download", "\(server.rootURL)/files/busy.bin?size=100000&fail_first=2&retry_after=1",
      "-d", state.url.path, "--sha256", expected, "-v")
    #expect(run.status == 0, "\(run.standardError)")
    #expect(requests(in: run).count == 3)
    #expect(run.standardOutput.contains("downloading (retry 2)"))
  }

  @Test func a404FailsWithoutRetrying() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let run = try await state.fetcher.run(
      "download", "\(server.rootURL)/faults/status/404", "-d", state.url.path, "-v")
    #expect(run.status == 3)
    #expect(requests(in: run).count == 1)
    let lines = run.standardError.split(separator: "\n").filter { !$0.contains(": GET ") }
    #expect(lines.count == 2)
    #expect(lines.first?.hasSuffix("the server answered HTTP 404") == true)
    #expect(lines.last?.hasSuffix(", 1 failed") == true)  // the summary
  }

  @Test func aStallLongerThanTheIdleTimeoutIsRetried() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let size = 1_000_000
    let expected = try await server.sha256("stall.bin", size: size)
    let run = try await state.fetcher.run(
      "download", "\(server.rootURL)/files/stall.bin?size=\(size)&stall=4",
      "-d", state.url.path, "--timeout", "1", "--sha256", expected, "-v")
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains("no data for 1 s; retry 1"))
    #expect(try await sha256(of: state.url.appendingPathComponent("stall.bin")) == expected)
  }

  @Test func anETagChangeMidResumeRestartsCleanly() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let size = 3_000_000
    let changed = try await server.sha256("etag.bin", size: size, version: 2)
    let run = try await state.fetcher.run(
      "download",
      "\(server.rootURL)/files/etag.bin?size=\(size)&drop_after=1048576&change_etag_after=1",
      "-d", state.url.path, "--sha256", changed, "-v")
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains("the server sent the whole file (HTTP 200); starting over"))
    #expect(try await sha256(of: state.url.appendingPathComponent("etag.bin")) == changed)
  }

  @Test func eightConcurrentDownloadsAllComplete() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let names = (1...8).map { "many\($0).bin" }
    let urls = names.enumerated().map { index, name in
      "\(server.rootURL)/files/\(name)?size=\(500_000 + index * 1000)&rate=2000000"
    }
    let run = try await state.fetcher.run(
      "download", "-d", state.url.path, "--concurrency", "8", urls[0], urls[1], urls[2], urls[3],
      urls[4], urls[5], urls[6], urls[7])
    #expect(run.status == 0, "\(run.standardError)")
    for (index, name) in names.enumerated() {
      let expected = try await server.sha256(name, size: 500_000 + index * 1000)
      #expect(try await sha256(of: state.url.appendingPathComponent(name)) == expected)
    }
    let list = try await state.fetcher.run("downloads", "list", "--json")
    #expect(list.outputLines.count == 8)
    #expect(list.outputLines.allSatisfy { $0.contains(#""state":"done""#) })
  }

  @Test func anExistingFileIsKeptWithoutForce() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let file = state.url.appendingPathComponent("mine.bin")
    try Data("mine".utf8).write(to: file)
    let run = try await state.fetcher.run(
      "download", "\(server.rootURL)/files/mine.bin?size=10", "-d", state.url.path)
    #expect(run.status == 13)
    #expect(
      run.standardError.contains(
        "exists (--force overwrites it, --auto-file-renaming writes another name)"))
    #expect(try Data(contentsOf: file) == Data("mine".utf8))

    let forced = try await state.fetcher.run(
      "download", "\(server.rootURL)/files/mine.bin?size=10", "-d", state.url.path, "--force")
    #expect(forced.status == 0, "\(forced.standardError)")
    #expect(try Data(contentsOf: file).count == 10)
  }

  @Test func downloadsResumeAllContinuesAKilledDownload() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let size = 1_500_000
    let url = "\(server.rootURL)/files/later.bin?size=\(size)&rate=1000000"
    try await killMidDownload(url, state: state)

    let resumed = try await state.fetcher.run("downloads", "resume", "--all", "-v")
    #expect(resumed.status == 0, "\(resumed.standardError)")
    #expect(requests(in: resumed).first?.hasSuffix("from byte 0") == false)
    let expected = try await server.sha256("later.bin", size: size)
    #expect(try await sha256(of: state.url.appendingPathComponent("later.bin")) == expected)
  }

  @Test func aServerNameIsSanitisedAndKeptInTheOutputFolder() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let run = try await state.fetcher.run(
      "download", "\(server.rootURL)/files/x.bin?size=10&filename=../../escape.txt",
      "-d", state.url.path)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      FileManager.default.fileExists(atPath: state.url.appendingPathComponent("escape.txt").path))
  }

  @Test func maxSizeAbortsLargeDownloads() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let run = try await state.fetcher.run(
      "download", "\(server.rootURL)/files/big.bin?size=100000", "-d", state.url.path,
      "--max-size", "1000")
    #expect(run.status == 1)
    #expect(run.standardError.contains("larger than the limit of 1000 bytes"))
  }

  @Test func cancelRemovesTheQueueEntryAndThePartialFile() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let url = "\(server.rootURL)/files/c.bin?size=2000000&rate=500000"
    try await killMidDownload(url, state: state)
    let list = try await state.fetcher.run("downloads", "list", "--json")
    let id = try #require(
      list.standardOutput.split(separator: "\"").drop { $0 != "id" }.dropFirst(2).first)
    #expect(try await state.fetcher.run("downloads", "cancel", String(id)).status == 0)
    #expect(try await state.fetcher.run("downloads", "list").standardOutput.isEmpty)
    let part = state.url.appendingPathComponent("c.bin.part")
    #expect(!FileManager.default.fileExists(atPath: part.path))
  }

  /// `cancel --all` is for the unfinished: the done and failed stay listed for `clear`.
  @Test func cancelAllCancelsTheUnfinishedAndKeepsTheHistory() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let done = try await state.fetcher.run(
      "download", "\(server.rootURL)/files/done.bin?size=1000", "-d", state.url.path)
    #expect(done.status == 0, "\(done.standardError)")
    let failed = try await state.fetcher.run(
      "download", "\(server.rootURL)/faults/status/404", "-o", "gone.bin", "-d", state.url.path)
    #expect(failed.status != 0)
    try await killMidDownload(
      "\(server.rootURL)/files/c.bin?size=2000000&rate=500000", state: state)
    let cancel = try await state.fetcher.run("downloads", "cancel", "--all")
    #expect(cancel.status == 0, "\(cancel.standardError)")
    #expect(
      cancel.standardError
        == "fetcher: cancelled 1 download; 2 done or failed kept (fetcher downloads clear "
        + "forgets them)\n")
    let list = try await state.fetcher.run("downloads", "list")
    #expect(list.standardOutput.split(separator: "\n").count == 2, "\(list.standardOutput)")
    #expect(list.standardOutput.contains("done.bin") && list.standardOutput.contains("gone.bin"))
    #expect(
      !FileManager.default.fileExists(atPath: state.url.appendingPathComponent("c.bin.part").path))
    #expect(
      FileManager.default.fileExists(atPath: state.url.appendingPathComponent("done.bin").path))
    let clear = try await state.fetcher.run("downloads", "clear")
    #expect(clear.standardError == "fetcher: 2 downloads cleared\n")
    #expect(try await state.fetcher.run("downloads", "list").standardOutput.isEmpty)
  }

  /// The ID of the one download in the queue.
  private func onlyDownloadID(_ state: StateFolder) async throws -> String {
    let list = try await state.fetcher.run("downloads", "list", "--json")
    return try #require(
      list.standardOutput.split(separator: "\"").drop { $0 != "id" }.dropFirst(2).first.map(
        String.init))
  }

  @Test func aSecondProcessNeverWritesTheDownloadTheFirstIsWriting() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    // Four seconds at 1 MB/s: time for the second process's commands, even when slowed down.
    let size = 4_000_000
    let url = "\(server.rootURL)/files/shared.bin?size=\(size)&rate=1000000"
    let first = try state.fetcher.start(["download", url, "-d", state.url.path, "--json"])
    _ = await first.readOutput(until: #""event":"progress""#)

    let second = try await state.fetcher.run("download", url, "-d", state.url.path)
    #expect(second.status == 11)
    #expect(
      second.standardError.contains(
        "is being written by process \(first.process.processIdentifier)"))
    let resumed = try await state.fetcher.run("downloads", "resume", "--all")
    #expect(resumed.status == 11)
    #expect(resumed.standardError.contains("is being written by process"))

    let firstRun = await first.wait()
    #expect(firstRun.status == 0, "\(firstRun.standardError)")
    let expected = try await server.sha256("shared.bin", size: size)
    #expect(try await sha256(of: state.url.appendingPathComponent("shared.bin")) == expected)
  }

  /// Two queues (two `FETCHER_HOME`s) downloading to one name: the second never takes the
  /// first's part file, and the first finishes with its own bytes.
  @Test func aSecondQueueNeverTakesThePartFileTheFirstIsWriting() async throws {
    let server = try TestServer()
    let (state, other, folder) = try (StateFolder(), StateFolder(), StateFolder())
    let size = 4_000_000
    let url = "\(server.rootURL)/files/one.bin?size=\(size)&rate=1000000"
    let first = try state.fetcher.start(["download", url, "-d", folder.url.path, "--json"])
    _ = await first.readOutput(until: #""event":"progress""#)

    let second = try await other.fetcher.run(
      "download", "\(server.rootURL)/files/two.bin?size=1000", "-d", folder.url.path, "-o",
      "one.bin")
    #expect(second.status == 17)
    #expect(
      second.standardError.contains("one.bin.part exists and is not this download's part file")
        || second.standardError.contains("another process is writing it"),
      "\(second.standardError)")

    let firstRun = await first.wait()
    #expect(firstRun.status == 0, "\(firstRun.standardError)")
    let expected = try await server.sha256("one.bin", size: size)
    #expect(try await sha256(of: folder.url.appendingPathComponent("one.bin")) == expected)
  }

  /// The user's own `NAME.part` is left as it is, as aria2c leaves it; a name that ends in
  /// `.part` is refused, so that one download's file is never another's part file.
  @Test func aPartFileTheDownloadDidNotMakeIsLeftAndPartNamesAreRefused() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let notes = state.url.appendingPathComponent("report.part")
    try Data("notes\n".utf8).write(to: notes)
    let run = try await state.fetcher.run(
      "download", "\(server.rootURL)/files/r.bin?size=1000", "-d", state.url.path, "-o", "report")
    #expect(run.status == 17)
    #expect(run.standardError.contains("report.part exists and is not this download's part file"))
    #expect(try String(contentsOf: notes, encoding: .utf8) == "notes\n")

    let list = state.url.appendingPathComponent("list.txt")
    try Data(
      "\(server.rootURL)/files/y1.bin?size=1000\n  out=y.part\n\(server.rootURL)/files/y2.bin?size=2000\n  out=y\n"
        .utf8
    ).write(to: list)
    let input = try await state.fetcher.run("download", "-i", list.path, "-d", state.url.path)
    #expect(input.status == 17)
    #expect(input.standardError.contains("y.part: a name that ends in .part is kept"))
    let y = try Data(contentsOf: state.url.appendingPathComponent("y"))
    #expect(y.count == 2000)
    #expect(
      !FileManager.default.fileExists(atPath: state.url.appendingPathComponent("y.part").path))
  }

  @Test func aCancelFromAnotherProcessStopsTheDownloader() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    // Slow enough (20 s) that the cancel comes first even when the machine is busy: at
    // 500,000 bytes a second the download could end while `downloads list` and `cancel`
    // started, under the load of the other tests.
    let url = "\(server.rootURL)/files/stop.bin?size=2000000&rate=100000"
    let first = try state.fetcher.start(["download", url, "-d", state.url.path, "--json"])
    _ = await first.readOutput(until: #""event":"progress""#)

    let id = try await onlyDownloadID(state)
    let cancel = try await state.fetcher.run("downloads", "cancel", id)
    #expect(cancel.status == 0, "\(cancel.standardError)")
    #expect(cancel.standardError == "fetcher: cancelled \(id) (stop.bin)\n")
    let firstRun = await first.wait()
    #expect(firstRun.status == 1)
    #expect(firstRun.standardError.contains("cancelled"))
    #expect(try await state.fetcher.run("downloads", "list").standardOutput.isEmpty)
    let part = state.url.appendingPathComponent("stop.bin.part")
    #expect(!FileManager.default.fileExists(atPath: part.path))
  }

  @Test func maxTimeEndsADownloadThatTrickles() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let run = try await state.fetcher.run(
      "download", "\(server.rootURL)/files/trickle.bin?size=100000&rate=2000", "-d",
      state.url.path, "--max-time", "1.5s")
    #expect(run.status == 2)
    #expect(run.standardError.contains("not finished within 1 s"))
    let wrong = try await state.fetcher.run(
      "download", "\(server.rootURL)/files/x.bin", "--max-time", "soon")
    #expect(wrong.status == 64)
    #expect(wrong.standardError.contains("--max-time"))
  }
}
