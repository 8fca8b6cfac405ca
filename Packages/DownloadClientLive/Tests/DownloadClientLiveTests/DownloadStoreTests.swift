import DownloadClient
import Foundation
import StoreLive
import Testing

@testable import DownloadClientLive

/// The queue in its journal file: two stores on one file stand for two processes.
@Suite struct DownloadStoreTests {
  private func record(_ id: String, _ status: DownloadStatus = .queued) -> DownloadRecord {
    DownloadRecord(
      download: Download(
        id: DownloadID(id), request: DownloadRequest(url: URL(string: "http://h/\(id)")!),
        status: status, destination: URL(fileURLWithPath: "/tmp/\(id)")),
      sequence: 0)
  }

  private func lines(of url: URL) throws -> [Substring] {
    try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
  }

  @Test func whatOneProcessWritesTheOtherReads() async throws {
    let folder = try TemporaryFolder()
    let file = folder.file("downloads.jsonl")
    let (one, two) = (DownloadStore.file(at: file), DownloadStore.file(at: file))
    _ = try DownloadQueue.insert(record("a"), into: one)
    _ = try DownloadQueue.insert(record("b"), into: two)
    _ = try DownloadQueue.change(DownloadID("a"), in: two, status: .completed)
    try DownloadQueue.delete(DownloadID("b"), from: one)
    let seen = try two.records()
    #expect(seen.map(\.download.id.rawValue) == ["a"])
    #expect(seen.first?.download.status == .completed)
    #expect(seen.first?.sequence == 1)
    #expect(try lines(of: file).count == 1 + 4)  // the generation, and a line per change
    #expect(try DownloadStore.file(at: file).records() == seen)
  }

  /// A read without the lock sees the process's own state only while the file is as it left
  /// it: a change by another process, or a compaction, is read first.
  @Test func aReadSeesWhatAnotherProcessWroteSinceItLastLooked() async throws {
    let folder = try TemporaryFolder()
    let file = folder.file("downloads.jsonl")
    let (one, two) = (DownloadStore.file(at: file), DownloadStore.file(at: file))
    _ = try DownloadQueue.insert(record("a"), into: one)
    #expect(try DownloadQueue.stored(DownloadID("a"), in: two)?.download.status == .queued)
    _ = try DownloadQueue.change(DownloadID("a"), in: one, status: .paused)
    #expect(try DownloadQueue.stored(DownloadID("a"), in: two)?.download.status == .paused)
    try DownloadQueue.delete(DownloadID("a"), from: one)
    #expect(try DownloadQueue.stored(DownloadID("a"), in: two) == nil)
    _ = try DownloadQueue.insert(record("c"), into: two)
    #expect(try two.records().map(\.download.id.rawValue) == ["c"])
    // Another file under the name, as a compaction by another process leaves it.
    let other = folder.file("other.jsonl")
    _ = try DownloadQueue.insert(record("d"), into: DownloadStore.file(at: other))
    #expect(rename(other.path, file.path) == 0)
    #expect(try two.records().map(\.download.id.rawValue) == ["d"])
  }

  @Test func aChangeAppendsOneLineWhateverTheQueueHolds() async throws {
    let folder = try TemporaryFolder()
    let file = folder.file("downloads.jsonl")
    let store = DownloadStore.file(at: file)
    for index in 0..<300 { _ = try DownloadQueue.insert(record("r\(index)"), into: store) }
    let before = try Data(contentsOf: file).count
    _ = try DownloadQueue.change(DownloadID("r7"), in: store, status: .running)
    let line = try Data(contentsOf: file).count - before
    #expect(line > 0 && line < 600, "one record's line, not the queue: \(line) bytes")
  }

  @Test func theJournalIsCompactedToOneLinePerRecord() async throws {
    let folder = try TemporaryFolder()
    let file = folder.file("downloads.jsonl")
    let store = DownloadStore.file(at: file)
    for index in 0..<5 { _ = try DownloadQueue.insert(record("r\(index)"), into: store) }
    for round in 0..<1100 {
      _ = try DownloadQueue.change(
        DownloadID("r\(round % 5)"), in: store, status: round % 2 == 0 ? .running : .paused)
    }
    #expect(try lines(of: file).count <= 1 + 2 * 5 + 1000)
    let other = try DownloadStore.file(at: file).records()
    #expect(other.map(\.download.id.rawValue) == ["r0", "r1", "r2", "r3", "r4"])
    #expect(other.map(\.download.status) == [.paused, .running, .paused, .running, .paused])
  }

  @Test func aLineThatIsNoRecordIsAnErrorNamingItAndTheFileIsKept() async throws {
    let folder = try TemporaryFolder()
    let file = folder.file("downloads.jsonl")
    _ = try DownloadQueue.insert(record("a"), into: DownloadStore.file(at: file))
    let handle = try FileHandle(forWritingTo: file)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("{\"oops\": 1}\n".utf8))
    try handle.close()
    let damaged = try Data(contentsOf: file)
    await #expect(
      throws: StoreFileError.corrupt(path: file.path, reason: "line 3 is not a download record")
    ) {
      _ = try DownloadStore.file(at: file).records()
    }
    #expect(try Data(contentsOf: file) == damaged)
  }

  @Test func theSingleFileQueueOfEarlierVersionsIsMovedIn() async throws {
    let folder = try TemporaryFolder()
    let legacy = folder.file("downloads.json")
    var done = record("a", .completed)
    done.sequence = 4
    let line = try JSONSerialization.jsonObject(with: QueueLineWriter.line(done))
    let stored = (line as! [String: Any])["record"]!
    try JSONSerialization.data(withJSONObject: ["downloads": [stored]]).write(to: legacy)
    let store = DownloadStore.file(at: folder.file("downloads.jsonl"), legacy: legacy)
    #expect(try store.records() == [done])
    #expect(!FileManager.default.fileExists(atPath: legacy.path))
    let next = try DownloadQueue.insert(record("b"), into: store).added
    #expect(next?.sequence == 5)
    #expect(try DownloadStore.file(at: folder.file("downloads.jsonl")).records().count == 2)
  }
}
