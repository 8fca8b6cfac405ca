import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The fault suite: hostile servers, kill loops, racing processes, a full disk and bad
/// analysis inputs. Each scenario must end with exit 0 and the right bytes, or exit 1 and one
/// clear line, in bounded time and requests; never a crash, a wrong file called finished, or
/// lost state. `FETCHER_FAULT_TRIALS` sets the trials of the loops (3 by default; the long
/// mode is, say, 40).
@Suite(.serialized, .timeLimit(.minutes(10))) struct FaultTests {
  private static let trials =
    Int(
      ProcessInfo.processInfo.environment["FETCHER_FAULT_TRIALS"] ?? "") ?? 3

  /// The requests `-v` logged.
  private func requests(in run: FetcherRun) -> Int {
    run.standardError.split(separator: "\n").filter { $0.contains(": GET ") }.count
  }

  /// The deterministic body of the lying server: byte i is i % 251.
  private func lyingBody(_ count: Int) -> Data { Data((0..<count).map { UInt8($0 % 251) }) }

  // MARK: A server that lies

  @Test func aShortBodyFailsAfterTheRetries() async throws {
    let server = try TestServer(script: Paths.lyingServer)
    let state = try StateFolder()
    let run = try await state.fetcher.run(
      "download", "\(server.rootURL)/short", "-d", state.url.path, "--retries", "2", "-v")
    #expect(run.status == 1)
    #expect(requests(in: run) == 3)
    #expect(!FileManager.default.fileExists(atPath: state.url.appendingPathComponent("short").path))
  }

  @Test func extraBytesBeyondTheLengthAreNotKept() async throws {
    let server = try TestServer(script: Paths.lyingServer)
    let state = try StateFolder()
    let run = try await state.fetcher.run(
      "download", "\(server.rootURL)/extra", "-d", state.url.path)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(try Data(contentsOf: state.url.appendingPathComponent("extra")) == lyingBody(100))
  }

  @Test(arguments: [
    ("negative", "Content-Length"), ("duplicate", "conflicting Content-Length fields (5, 6)"),
  ])
  func aMalformedLengthFailsAtOnce(path: String, reason: String) async throws {
    let server = try TestServer(script: Paths.lyingServer)
    let state = try StateFolder()
    let run = try await state.fetcher.run(
      "download", "\(server.rootURL)/\(path)", "-d", state.url.path, "-v")
    #expect(run.status == 1)
    #expect(requests(in: run) == 1)
    #expect(run.standardError.contains(reason), "\(run.standardError)")
  }

  @Test(arguments: ["garbled-range", "mismatched-range"])
  func aLyingContentRangeEndsWithinTheRetries(path: String) async throws {
    let server = try TestServer(script: Paths.lyingServer)
    let state = try StateFolder()
    let run = try await state.fetcher.run(
      "download", "\(server.rootURL)/\(path)", "-d", state.url.path, "--retries", "3", "-v")
    #expect(run.status == 8)
    #expect(run.standardError.contains("does not continue the file"))
    // One attempt that wrote bytes, then at most the retries.
    #expect(requests(in: run) <= 5)
    #expect(!FileManager.default.fileExists(atPath: state.url.appendingPathComponent(path).path))
  }

  @Test func aBodyThatNeverStartsEndsAtTheIdleTimeout() async throws {
    let server = try TestServer(script: Paths.lyingServer)
    let state = try StateFolder()
    let run = try await state.fetcher.run(
      "download", "\(server.rootURL)/never", "-d", state.url.path, "--timeout", "1",
      "--retries", "1", "-v")
    #expect(run.status == 2)
    #expect(run.standardError.contains("no data for 1 s"))
    #expect(requests(in: run) == 2)
  }

  @Test func aTrickleEndsAtTheMaxTime() async throws {
    let server = try TestServer(script: Paths.lyingServer)
    let state = try StateFolder()
    let run = try await state.fetcher.run(
      "download", "\(server.rootURL)/trickle", "-d", state.url.path, "--max-time", "2")
    #expect(run.status == 2)
    #expect(run.standardError.contains("not finished within 2 s"))
  }

  @Test(arguments: [
    "../../escape", "/etc/passwd", ".", "..", "", "a/b/c", "\u{1B}[2Jclear",
    String(repeating: "n", count: 300), "con\u{0}trol",
  ])
  func aHostileServerNameStaysInTheFolder(name: String) async throws {
    let server = try TestServer(script: Paths.lyingServer)
    let state = try StateFolder()
    let folder = state.url.appendingPathComponent("out")
    let query = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    let run = try await state.fetcher.run(
      "download", "\(server.rootURL)/name?n=\(query)", "-d", folder.path)
    #expect(run.status == 0 || run.status == 1, "\(run.standardError)")
    // Nothing but the state folder's own files and `out` outside `out`.
    let outside = try FileManager.default.contentsOfDirectory(atPath: state.url.path)
    #expect(
      Set(outside).isSubset(of: ["out", "downloads.jsonl", "downloads.jsonl.lock", "claims"]))
    if run.status == 0 {
      let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      #expect(files.count == 1)
      let file = folder.appendingPathComponent(try #require(files.first))
      #expect(try Data(contentsOf: file) == lyingBody(1000))
      #expect(!files[0].unicodeScalars.contains { $0.value < 0x20 })
    }
  }

  // MARK: Killed and racing processes

  @Test func killedAgainAndAgainTheDownloadStillEndsRight() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let size = 2_000_000
    let url = "\(server.rootURL)/files/killed.bin?size=\(size)&rate=2000000"
    for _ in 0..<Self.trials {
      let running = try state.fetcher.start(["download", url, "-d", state.url.path, "--json"])
      _ = await running.readOutput(until: #""event":"progress""#)
      await running.kill()
    }
    let run = try await state.fetcher.run("download", url, "-d", state.url.path)
    #expect(run.status == 0, "\(run.standardError)")
    let file = state.url.appendingPathComponent("killed.bin")
    #expect(try await sha256(of: file) == server.sha256("killed.bin", size: size))
  }

  @Test func twoProcessesRacingForOneDownloadNeverCorruptIt() async throws {
    let server = try TestServer()
    for trial in 0..<Self.trials {
      let state = try StateFolder()
      let size = 1_000_000
      let name = "race\(trial).bin"
      let url = "\(server.rootURL)/files/\(name)?size=\(size)&rate=2000000"
      let first = try state.fetcher.start(["download", url, "-d", state.url.path])
      let second = try state.fetcher.start(["download", url, "-d", state.url.path])
      let (one, two) = (await first.wait(), await second.wait())
      // Either both finish (one after the other), or one says the other writes it.
      for run in [one, two] where run.status != 0 {
        #expect(run.status == 11)
        #expect(run.standardError.contains("is being written by"), "\(run.standardError)")
      }
      #expect(one.status == 0 || two.status == 0)
      let file = state.url.appendingPathComponent(name)
      #expect(try await sha256(of: file) == server.sha256(name, size: size))
      let list = try await state.fetcher.run("downloads", "list", "--json")
      #expect(list.outputLines.count == 1)
      #expect(list.standardOutput.contains(#""state":"done""#))
    }
  }

  @Test func killedFetchesNeverLoseACount() async throws {
    // server.py hands out one valid path at a time: one server per process, one state folder.
    let servers = try (0..<3).map { _ in try TestServer() }
    let state = try StateFolder()
    var printed = 0
    var killed = 0
    for trial in 0..<Self.trials {
      let processes = try servers.map { server in
        try state.fetcher.start(["fetch", "--root-url", server.rootURL, "--times", "5", "--json"])
      }
      if trial % 2 == 0 {
        _ = await processes[0].readOutput(until: "timesFetched")
        await processes[0].kill()
        killed += 1
      }
      for (index, process) in processes.enumerated() {
        let run = await process.wait()
        if trial % 2 == 0 && index == 0 { continue }
        #expect(run.status == 0, "\(run.standardError)")
        printed += run.outputLines.count
      }
    }
    let status = try await state.fetcher.run("status", "--json")
    let count = try #require(
      status.standardOutput.split(separator: ":").last.flatMap {
        Int($0.filter(\.isNumber))
      })
    // A killed process may have counted fetches it never printed: at most its five.
    #expect(count >= printed)
    #expect(count <= printed + killed * 5)
  }

  // MARK: A full disk

  /// Whether this process may mount a tmpfs (root, or `CAP_SYS_ADMIN`), as the full disk
  /// needs: without, that test shows as skipped.
  static let canMountTmpfs: Bool = {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("FaultTests-probe-\(UUID().uuidString)")
    guard
      (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true))
        != nil
    else { return false }
    defer { try? FileManager.default.removeItem(at: folder) }
    guard mount("tmpfs", folder.path, "tmpfs", 0, "size=64k") == 0 else { return false }
    umount(folder.path)
    return true
  }()

  @Test(.enabled(if: canMountTmpfs, "mounting a tmpfs needs root or CAP_SYS_ADMIN"))
  func aFullDiskIsAClearErrorAndTheDownloadResumesAfterSpaceIsFreed() async throws {
    let state = try StateFolder()
    let disk = try mountedDisk(in: state, size: "1m")
    defer { umount(disk.path) }
    let server = try TestServer()
    let size = 1_500_000
    let url = "\(server.rootURL)/files/full.bin?size=\(size)"
    let full = try await state.fetcher.run("download", url, "-d", disk.path)
    #expect(full.status == 9)
    #expect(full.standardError.contains("No space left on device"), "\(full.standardError)")
    // More room, and the same command finishes the file.
    #expect(mountTmpfs(at: disk, size: "4m", remount: true) == 0)
    let resumed = try await state.fetcher.run("download", url, "-d", disk.path)
    #expect(resumed.status == 0, "\(resumed.standardError)")
    let file = disk.appendingPathComponent("full.bin")
    #expect(try await sha256(of: file) == server.sha256("full.bin", size: size))
  }

  /// A partial result larger than the room left is a clear error, written in pieces as it is:
  /// the file it would replace stays as it was, with nothing left beside it.
  @Test(.enabled(if: canMountTmpfs, "mounting a tmpfs needs root or CAP_SYS_ADMIN"))
  func aPartialResultOnAFullDiskIsAClearErrorAndReplacesNothing() async throws {
    let state = try StateFolder()
    let disk = try mountedDisk(in: state, size: "256k")
    defer { umount(disk.path) }
    // 20,000 clients: a partial result of about 1 MB.
    let log = state.url.appendingPathComponent("a.log")
    let lines = (0..<20_000).map {
      line.replacingOccurrences(of: "1.2.3.4", with: "10.0.\($0 / 250).\($0 % 250)")
    }
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: log)
    let partial = disk.appendingPathComponent("a.partial")
    try Data("the last one".utf8).write(to: partial)
    let run = try await state.fetcher.run("analyze", log.path, "--partial-out", partial.path)
    #expect(run.status == 1)
    #expect(run.standardError.contains("No space left on device"), "\(run.standardError)")
    #expect(run.standardError.contains("cannot write \(partial.path)"), "\(run.standardError)")
    #expect(try Data(contentsOf: partial) == Data("the last one".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == ["a.partial"])
  }

  /// Standard output that takes nothing (`> /dev/full`) is a clear error and exit status 1,
  /// as with `cat`, whatever writes it: fetcher 4.0 crashed on it.
  @Test func aFullStandardOutputIsAClearError() async throws {
    let state = try StateFolder()
    let log = state.url.appendingPathComponent("a.log")
    try Data((line + "\n").utf8).write(to: log)
    var fetcher = state.fetcher
    fetcher.prefix = ["sh", "-c", #"exec "$0" "$@" > /dev/full"#]
    for arguments in [
      ["analyze", log.path], ["analyze", log.path, "--json"],
      ["analyze", log.path, "--partial-out", "-"], ["analyze", log.path, "--html", "-"],
      ["status"],
    ] {
      let run = try await fetcher.run(arguments)
      #expect(run.status == 1, "\(arguments)")
      #expect(
        run.standardError.contains(
          "fetcher: cannot write standard output: No space left on device"),
        "\(arguments): \(run.standardError)")
    }
  }

  /// Standard error that takes nothing (`2> /dev/full`) changes nothing but the messages lost:
  /// the result on standard output and the exit status are as ever (fetcher 4.0 crashed).
  @Test func aFullStandardErrorLosesOnlyTheMessages() async throws {
    let state = try StateFolder()
    let log = state.url.appendingPathComponent("a.log")
    let visits = ["/a", "/b", "/c"].map { line.replacingOccurrences(of: "/a", with: $0) + "\n" }
    try Data(visits.joined().utf8).write(to: log)
    var fetcher = state.fetcher
    fetcher.prefix = ["sh", "-c", #"exec "$0" "$@" 2> /dev/full"#]
    let analysis = try await fetcher.run("analyze", log.path, "--csv")
    #expect(analysis.status == 0)
    #expect(analysis.standardOutput.contains("1,1,1.0,/a,/b,/c"), "\(analysis.standardOutput)")
    #expect(
      try await fetcher.run("analyze", state.url.appendingPathComponent("none").path).status == 1)
    #expect(try await fetcher.run("fetchh").status == 64)
  }

  /// Downloads whose events standard output refuses go on: the file is whole, the refusal is
  /// said once, and the exit status is 1.
  @Test func aFullStandardOutputLetsDownloadsFinish() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    var fetcher = state.fetcher
    fetcher.prefix = ["sh", "-c", #"exec "$0" "$@" > /dev/full"#]
    let run = try await fetcher.run(
      "download", "--json", "-d", state.url.path, "\(server.rootURL)/files/full.bin?size=3000")
    #expect(run.status == 1, "\(run.standardError)")
    let said = run.standardError.components(
      separatedBy: "fetcher: cannot write standard output: No space left on device")
    #expect(said.count == 2, "\(run.standardError)")
    let file = state.url.appendingPathComponent("full.bin")
    #expect(try Data(contentsOf: file).count == 3000)
  }

  // MARK: Bad analysis inputs

  /// Runs `analyze` on `data` written to a file named `name`.
  private func analyze(_ data: Data, named name: String = "input.log") async throws -> FetcherRun {
    let state = try StateFolder()
    let file = state.url.appendingPathComponent(name)
    try data.write(to: file)
    return try await state.fetcher.run("analyze", file.path)
  }

  private let line = #"1.2.3.4 - - [01/Jul/1995:00:00:01 -0400] "GET /a HTTP/1.0" 200 1"#

  @Test func binaryNULsAndEmptyInputsEndCleanly() async throws {
    let binary = Data((0..<UInt64(1_000_000)).map(ScrambledBytes.byte))
    let nuls = Data(repeating: 0, count: 100_000)
    for input in [binary, nuls, Data()] {
      let run = try await analyze(input)
      #expect(run.status == 0 || run.status == 1, "\(run.standardError)")
    }
    let empty = try await analyze(Data())
    #expect(empty.standardError.contains("0 lines"))
  }

  @Test func crlfLinesCountLikeLFLines() async throws {
    let lines = ["/a", "/b", "/c", "/a", "/b", "/c"].map {
      line.replacingOccurrences(of: "/a", with: $0)
    }
    let lf = try await analyze(Data((lines.joined(separator: "\n") + "\n").utf8))
    let crlf = try await analyze(Data((lines.joined(separator: "\r\n") + "\r\n").utf8))
    #expect(lf.status == 0)
    #expect(crlf.standardOutput == lf.standardOutput)
  }

  @Test func aHugeLineWithoutANewlineIsOneMalformedLine() async throws {
    let megabytes = Self.trials > 3 ? 100 : 20
    let run = try await analyze(Data(repeating: UInt8(ascii: "x"), count: megabytes << 20))
    #expect(run.status == 1)
    #expect(run.standardError.contains("no line of the input reads"), "\(run.standardError)")
  }

  @Test func damagedGzipIsAClearError() async throws {
    let state = try StateFolder()
    let plain = state.url.appendingPathComponent("a.log")
    try Data(String(repeating: line + "\n", count: 2000).utf8).write(to: plain)
    let gzip = Process()
    gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    gzip.arguments = ["gzip", "-k", plain.path]
    try gzip.run()
    gzip.waitUntilExit()
    let whole = try Data(contentsOf: state.url.appendingPathComponent("a.log.gz"))
    let truncated = try await analyze(whole.prefix(whole.count / 2), named: "cut.log.gz")
    #expect(truncated.status == 1)
    #expect(truncated.standardError.contains("cut.log.gz"))
    // gzip is known by its first bytes, not by the name.
    let notGzip = try await analyze(Data((line + "\n").utf8), named: "plain.log.gz")
    #expect(notGzip.status == 0)
    #expect(notGzip.standardError.contains("1 line (common), 1 visit, 0 malformed"))
  }

  @Test func aFolderIsAClearError() async throws {
    let state = try StateFolder()
    let run = try await state.fetcher.run("analyze", state.url.path)
    #expect(run.status == 1)
    #expect(run.standardError.contains("is a folder"))
  }

  /// A line without an end is skipped as it is read (1 MiB kept): `/dev/zero` is read on and
  /// on with flat memory until the process is stopped.
  @Test func devZeroIsReadWithFlatMemoryUntilStopped() async throws {
    let state = try StateFolder()
    let running = try state.fetcher.start(["analyze", "/dev/zero"])
    let pid = running.process.processIdentifier
    let deadline = ContinuousClock.now.advanced(by: .seconds(60))
    var read = 0
    // 40 MiB: forty lines too long to keep, about 5 s for the debug build the tests run.
    while read < 40 << 20, running.process.isRunning, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(20))
      read = procField("/proc/\(pid)/io", "rchar") ?? 0
    }
    #expect(read >= 40 << 20)
    #expect(running.process.isRunning)
    // About 38 MB at rest; what was read is not kept.
    let residentKB = procField("/proc/\(pid)/status", "VmRSS") ?? .max
    #expect(residentKB < 64 * 1024, "resident \(residentKB) kB after \(read >> 20) MiB")
    await running.kill()
  }

  @Test func aCraftedPartialIsRefused() async throws {
    let state = try StateFolder()
    let file = state.url.appendingPathComponent("crafted.partial")
    try (Data("fetcher-partial-3\n".utf8) + Data(repeating: 0xFF, count: 64)).write(to: file)
    let run = try await state.fetcher.run("analyze", "--merge", file.path)
    #expect(run.status == 1)
    #expect(run.standardError.contains("crafted.partial"))
  }

  // MARK: Helpers

  /// The number in the field `name` of a `/proc` file (`rchar: 123`, `VmRSS:  456 kB`).
  private func procField(_ path: String, _ name: String) -> Int? {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    let line = text.split(separator: "\n").first { $0.hasPrefix(name + ":") }
    return line?.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
      .flatMap { Int($0) }
  }

  /// The folder `disk` in `state`, a tmpfs of `size` mounted on it: the caller unmounts it.
  private func mountedDisk(in state: StateFolder, size: String) throws -> URL {
    let disk = state.url.appendingPathComponent("disk")
    try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
    try #require(mountTmpfs(at: disk, size: size) == 0, "\(String(cString: strerror(errno)))")
    return disk
  }

  /// mount(2) of a tmpfs of `size` at `folder`; 0 on success.
  private func mountTmpfs(at folder: URL, size: String, remount: Bool = false) -> Int32 {
    "size=\(size)".withCString { options in
      mount("tmpfs", folder.path, "tmpfs", remount ? UInt(MS_REMOUNT) : 0, options)
    }
  }

}
