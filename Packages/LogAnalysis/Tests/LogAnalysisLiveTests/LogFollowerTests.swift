import Foundation
import LogAnalysisLive
import Synchronization
import TestClocks
import Testing

/// `analyze --follow` on a test clock: each tick reads what the log gained.
@Suite(.timeLimit(.minutes(10))) struct LogFollowerTests {
  private func line(_ client: Int, _ page: Int) -> String {
    #"10.0.0.\#(client) - - [01/Jul/1995:00:00:01 -0400] "GET /p\#(page) HTTP/1.0" 200 100"# + "\n"
  }

  private func append(_ text: String, to url: URL) throws {
    if !FileManager.default.fileExists(atPath: url.path) {
      FileManager.default.createFile(atPath: url.path, contents: nil)
    }
    let handle = try FileHandle(forWritingTo: url)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(text.utf8))
    try handle.close()
  }

  /// A new folder, for the test to remove.
  private func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("LogFollowerTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  @Test func eachTickReadsTheNewLinesAcrossARotationAndTheEndKeepsTheState() async throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = folder.appendingPathComponent("access.log")
    try append(line(1, 1) + line(1, 2), to: log)
    let clock = TestClock()
    let follower = LogFollower(
      path: log.path, options: AnalysisOptions(), format: nil, every: .seconds(2), clock: clock)
    let seen = Mutex<[Int]>([])
    let task = Task {
      try await follower.run { partial, _ in seen.withLock { $0.append(partial.lines) } }
    }
    await clock.sleepers()
    #expect(seen.withLock { $0 } == [2])

    try append(line(1, 3) + "10.0.0.1 - - [01/Jul/1995:00:00:01 -0400] \"GET /p4", to: log)
    clock.advance(by: .seconds(2))
    await clock.sleepers()
    // The half-written line waits for its end.
    #expect(seen.withLock { $0 } == [2, 3])

    try append(" HTTP/1.0\" 200 100\n", to: log)
    try FileManager.default.moveItem(atPath: log.path, toPath: log.path + ".1")
    try append(line(2, 1), to: log)
    clock.advance(by: .seconds(2))
    await clock.sleepers()
    #expect(seen.withLock { $0 } == [2, 3, 5])

    task.cancel()
    let state = try await task.value
    #expect(state.partial.lines == 5)
    #expect(state.partial.ranking(top: 0).first?.pageTexts == ["/p1", "/p2", "/p3"])
    #expect(state.position.path == log.path)
  }

  /// A W3C log read in pieces: each piece by the `#Fields:` line in force where it starts,
  /// which may be in a piece read before.
  @Test func aW3CLogIsFollowedByItsFieldsLines() async throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = folder.appendingPathComponent("u_ex240501.log")
    try append(
      "#Version: 1.0\n#Fields: date time c-ip cs-uri-stem\n2024-05-01 10:00:00 a /1\n", to: log)
    let clock = TestClock()
    let follower = LogFollower(
      path: log.path, options: AnalysisOptions(), format: nil, every: .seconds(2), clock: clock)
    let task = Task { try await follower.run { _, _ in } }
    await clock.sleepers()
    try append("2024-05-01 10:00:01 a /2\n", to: log)
    clock.advance(by: .seconds(2))
    await clock.sleepers()
    // The server restarted: its new header puts the fields in another order.
    try append("#Fields: cs-uri-stem c-ip date time\n/3 a 2024-05-01 10:00:02\n", to: log)
    clock.advance(by: .seconds(2))
    await clock.sleepers()
    try append("/4 a 2024-05-01 10:00:03\n", to: log)
    clock.advance(by: .seconds(2))
    await clock.sleepers()

    task.cancel()
    let state = try await task.value
    #expect(state.partial.lines == 4)
    #expect(state.partial.malformedLines == 0)
    #expect(
      state.partial.ranking(top: 0).map(\.pageTexts) == [["/1", "/2", "/3"], ["/2", "/3", "/4"]])
    #expect(state.position.fields == Data("#Fields: cs-uri-stem c-ip date time".utf8))
  }

  /// Between logrotate's rename and the server's new file the log is gone: the follower waits,
  /// saying so once, as `tail -F` does, and reads the rest of the old file and the new one
  /// when it is back.
  @Test func aLogGoneBetweenARotationAndItsNewFileIsWaitedFor() async throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = folder.appendingPathComponent("g.log")
    try append(line(1, 1), to: log)
    let clock = TestClock()
    let follower = LogFollower(
      path: log.path, options: AnalysisOptions(), format: nil, every: .seconds(1), clock: clock)
    let seen = Mutex<[(lines: Int, notes: [String])]>([])
    let task = Task {
      try await follower.run { partial, reading in
        seen.withLock { $0.append((partial.lines, reading.notes)) }
      }
    }
    await clock.sleepers()
    try append(line(1, 2), to: log)
    try FileManager.default.moveItem(atPath: log.path, toPath: log.path + ".1")
    for _ in 0..<3 {
      clock.advance(by: .seconds(1))
      await clock.sleepers()
    }
    try append(line(2, 1), to: log)
    clock.advance(by: .seconds(1))
    await clock.sleepers()
    task.cancel()
    let state = try await task.value
    let gone = "\(log.path) is gone (rotated?): waiting for it to appear again"
    let back = "\(log.path) has appeared: following the new file"
    #expect(seen.withLock { $0.map(\.lines) } == [1, 1, 1, 1, 3])
    #expect(seen.withLock { $0.map(\.notes) } == [[], [gone], [], [], [back]])
    #expect(state.partial.lines == 3)
  }

  /// A log replaced by a FIFO is refused at once: opening it never waits for a writer.
  @Test func aLogThatBecomesAFIFOEndsTheFollowSayingSo() async throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = folder.appendingPathComponent("g.log")
    try append(line(1, 1), to: log)
    let clock = TestClock()
    let follower = LogFollower(
      path: log.path, options: AnalysisOptions(), format: nil, every: .seconds(1), clock: clock)
    let task = Task { try await follower.run { _, _ in } }
    await clock.sleepers()
    try FileManager.default.removeItem(at: log)
    #expect(mkfifo(log.path, 0o600) == 0)
    clock.advance(by: .seconds(1))
    await #expect {
      _ = try await task.value
    } throws: { error in
      "\(error)" == "\(log.path) is not a regular file (a FIFO, a folder?): a log is read as a file"
    }
  }
}
