import Foundation
import Testing

/// The command line wins over the saved queue, input files in aria2c's format, and progress
/// that fits the terminal.
@Suite(.serialized, .timeLimit(.minutes(10))) struct DownloadQueueTests {
  @Test func aFileThatIsGoneIsFetchedAgain() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let url = "\(server.rootURL)/files/again.bin?size=2000"
    let file = state.url.appendingPathComponent("again.bin")
    let first = try await state.fetcher.run("download", url, "-d", state.url.path)
    #expect(first.status == 0, "\(first.standardError)")
    try FileManager.default.removeItem(at: file)
    let second = try await state.fetcher.run("download", url, "-d", state.url.path)
    #expect(second.status == 0, "\(second.standardError)")
    #expect(try Data(contentsOf: file).count == 2000)
    let list = try await state.fetcher.run("downloads", "--json")
    #expect(list.outputLines.count == 1)
  }

  @Test func anotherFolderOrForceMakesANewDownload() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let url = "\(server.rootURL)/files/twice.bin?size=3000"
    let first = try await state.fetcher.run("download", url, "-d", state.url.path)
    #expect(first.status == 0, "\(first.standardError)")
    let other = state.url.appendingPathComponent("new/folder")
    let second = try await state.fetcher.run("download", url, "-d", other.path)
    #expect(second.status == 0, "\(second.standardError)")
    #expect(
      try Data(contentsOf: other.appendingPathComponent("twice.bin")).count == 3000)

    let again = try await state.fetcher.run("download", url, "-d", state.url.path, "--json")
    #expect(!again.standardOutput.contains(#""state":"downloading""#))
    let forced = try await state.fetcher.run(
      "download", url, "-d", state.url.path, "--force", "--json")
    #expect(forced.status == 0, "\(forced.standardError)")
    #expect(forced.standardOutput.contains(#""state":"downloading""#))
    let list = try await state.fetcher.run("downloads", "--json")
    #expect(list.outputLines.count == 2)
  }

  @Test func aFailedEntryNeverBlocksANewDownloadOfItsFile() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let failed = try await state.fetcher.run(
      "download", "\(server.rootURL)/faults/status/404", "-d", state.url.path)
    #expect(failed.status == 3)
    let other = try await state.fetcher.run(
      "download", "\(server.rootURL)/files/404?size=10", "-d", state.url.path)
    #expect(other.status == 0, "\(other.standardError)")
    #expect(try Data(contentsOf: state.url.appendingPathComponent("404")).count == 10)

    let cleared = try await state.fetcher.run("downloads", "clear")
    #expect(cleared.standardError == "fetcher: 1 download cleared\n")
    let empty = try await state.fetcher.run("downloads")
    #expect(empty.standardOutput.isEmpty)
    #expect(empty.standardError == "fetcher: no downloads\n")
  }

  @Test func ifChangedLeavesAnUnchangedFileAloneAndFetchesAChangedOne() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    // The server's file changes (new bytes, new ETag) from its third request on.
    let url = "\(server.rootURL)/files/feed.bin?size=5000&change_etag_after=2"
    let file = state.url.appendingPathComponent("feed.bin")
    let first = try await state.fetcher.run("download", url, "-d", state.url.path)
    #expect(first.status == 0, "\(first.standardError)")
    let unchanged = try await state.fetcher.run(
      "download", url, "-d", state.url.path, "--if-changed")
    #expect(unchanged.status == 0, "\(unchanged.standardError)")
    #expect(unchanged.standardOutput.contains("done, unchanged \(file.path)"))
    #expect(try await sha256(of: file) == (try await server.sha256("feed.bin", size: 5000)))

    let changed = try await state.fetcher.run(
      "download", url, "-d", state.url.path, "--if-changed", "--json")
    #expect(changed.status == 0, "\(changed.standardError)")
    #expect(!changed.standardOutput.contains(#""unchanged":true"#))
    let second = try await server.sha256("feed.bin", size: 5000, version: 2)
    #expect(try await sha256(of: file) == second)
  }

  @Test func retriesAreHonoured() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let none = try await state.fetcher.run(
      "download", "\(server.rootURL)/files/r0.bin?size=10&fail_first=3&retry_after=0",
      "-d", state.url.path, "--retries", "0", "-v")
    #expect(none.status == 29)
    #expect(none.standardError.components(separatedBy: ": GET ").count == 2)
    let one = try await state.fetcher.run(
      "download", "\(server.rootURL)/files/r1.bin?size=10&fail_first=3&retry_after=0",
      "-d", state.url.path, "--retries", "1", "-v")
    #expect(one.status == 29)
    #expect(one.standardError.components(separatedBy: ": GET ").count == 3)
  }

  @Test func anInputFileWithThreeURLsAndAWrongChecksum() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let good = try await server.sha256("c.bin", size: 1000)
    let list = """
      # three files
      \(server.rootURL)/files/a.bin?size=1000
        dir=sub
        out=first.bin
      \(server.rootURL)/files/b.bin?size=1000
        checksum=sha-256=\(String(repeating: "0", count: 64))
      \(server.rootURL)/files/c.bin?size=1000
        checksum=sha-256=\(good)
      """
    let input = state.url.appendingPathComponent("list.txt")
    try Data(list.utf8).write(to: input)
    // dir= is relative to the working directory, as in aria2c, not to -d.
    let out = state.url.appendingPathComponent("out")
    let run = try await state.fetcher.working(in: state.url).run(
      "download", "-i", input.path, "-d", out.path, "--json")
    #expect(run.status == 32)
    #expect(run.standardError.contains("b.bin: SHA-256 mismatch"))
    let first = state.url.appendingPathComponent("sub/first.bin")
    #expect(try await sha256(of: first) == (try await server.sha256("a.bin", size: 1000)))
    #expect(try await sha256(of: out.appendingPathComponent("c.bin")) == good)
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("b.bin").path))

    try Data("http://h/x\n  split=4\n".utf8).write(to: input)
    let bad = try await state.fetcher.run("download", "-i", input.path)
    #expect(bad.status == 1)
    #expect(
      bad.standardError
        == "fetcher: \(input.path): line 2: unknown option 'split' (dir, out and checksum are read)\n"
    )
  }

  @Test func aSplitDownloadOutlivesDroppedConnections() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let size = 6_000_000
    let expected = try await server.sha256("split.bin", size: size)
    // Every reply ends after 1 MB: each of the 4 segments (1.5 MB) is cut once and resumed.
    let run = try await state.fetcher.run(
      "download", "\(server.rootURL)/files/split.bin?size=\(size)&drop_after=1000000",
      "-d", state.url.path, "-s", "4", "--sha256", expected, "-v")
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains("in 4 segments"))
    #expect(try await sha256(of: state.url.appendingPathComponent("split.bin")) == expected)
  }

  @Test func aKilledSplitDownloadResumesItsSegments() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let size = 24_000_000
    let url = "\(server.rootURL)/files/killed.bin?size=\(size)&rate=2000000"
    let running = try state.fetcher.start([
      "download", url, "-d", state.url.path, "-s", "4", "--json",
    ])
    // Killed once more than 5 MB have arrived (the segments are saved every 4 MiB).
    var received = 0
    while received < 5_000_000 {
      let read = await running.readOutput(until: "\n")
      if read.isEmpty { break }
      for line in read.split(separator: "\n") where line.contains(#""event":"progress""#) {
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        received = max(received, object?["receivedBytes"] as? Int ?? 0)
      }
    }
    await running.kill()
    let list = try await state.fetcher.run("downloads", "--json")
    let saved = try #require(
      try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [String: Any])
    let kept = try #require(saved["receivedBytes"] as? Int)
    #expect(kept >= 4 << 20 && kept < size)

    let resumed = try await state.fetcher.run(
      "download", url, "-d", state.url.path, "-s", "4", "-v")
    #expect(resumed.status == 0, "\(resumed.standardError)")
    // It goes on from what the segments kept, not from zero.
    let line = try #require(
      resumed.standardError.split(separator: "\n").first { $0.contains(" segments, ") })
    let onDisk = try #require(Int(line.split(separator: " ").reversed()[5]))
    #expect(onDisk >= kept)
    let expected = try await server.sha256("killed.bin", size: size)
    #expect(try await sha256(of: state.url.appendingPathComponent("killed.bin")) == expected)
  }

  /// Ctrl-C on a terminal: the last frame says paused, not downloading, with the bytes on
  /// disk; the command exits 130.
  @Test func ctrlCLeavesRowsThatSayPaused() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let urls = (1...3).map { "\(server.rootURL)/files/c\($0).bin?size=4000000&rate=400000" }
    let session = try TerminalSession(
      home: state.url, arguments: ["download", "-d", state.url.path] + urls,
      size: (columns: 80, lines: 24))
    await session.waitFor("KiB/s")
    session.type("\u{03}")
    #expect(await session.exitStatus() == 130)
    // The frames one after another (the terminal's echo of ^C may stand before a row): each
    // download's last row is the last frame's.
    let lines = session.screenLines
    for name in ["c1.bin ", "c2.bin ", "c3.bin "] {
      let last = try #require(lines.last { $0.contains(name) }, "\(lines)")
      #expect(last.hasSuffix("paused"), "\(last)")
    }
    // No file is done, but bytes arrived: the summary says how many, and its rate is theirs.
    #expect(
      lines.contains {
        $0.hasPrefix("no file done, ") && $0.contains(" received in ") && $0.hasSuffix(", 3 paused")
      }, "\(lines)")
  }

  @Test func progressFitsAnEightyColumnTerminal() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let urls = (1...3).map {
      "\(server.rootURL)/files/a-file-with-a-rather-long-name-\($0).bin?size=400000&rate=400000"
    }
    let session = try TerminalSession(
      home: state.url, arguments: ["download", "-d", state.url.path] + urls,
      size: (columns: 80, lines: 24))
    #expect(await session.exitStatus() == 0)
    let lines = session.screenLines
    #expect(lines.contains { $0.contains("downloading") })
    // At 80 columns the bar gives way: the speed and the time left stay.
    #expect(!lines.contains { $0.contains("░") }, "\(lines)")
    #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
    // Sizes come out in the units they go in (--max-size 1M is 1 MiB).
    #expect(lines.contains { $0.hasPrefix("3 files, 1.1 MiB in ") }, "\(lines)")
  }

}
