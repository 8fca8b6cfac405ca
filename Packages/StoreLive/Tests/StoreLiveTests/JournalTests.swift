import Foundation
import StoreLive
import Testing

/// Two `Journal`s on one file stand for two processes.
@Suite struct JournalTests {
  private func line(_ text: String) -> Data { Data(text.utf8) }

  /// The catch-up a transaction sees, with `write` written.
  private func look(
    _ journal: Journal, writing write: Journal.Write = .append([])
  ) throws -> Journal.Catchup {
    try journal.transaction { catchup in (write, catchup) }
  }

  @Test func eachWriterReadsOnlyWhatOthersAppendedSinceItLooked() throws {
    let folder = try TemporaryFolder()
    let (one, two) = (Journal(url: folder.file("j")), Journal(url: folder.file("j")))
    let first = try look(one, writing: .append([line("a"), line("b")]))
    #expect(first.fromStart && first.lines.isEmpty && first.lineCount == 0)
    let seen = try look(two, writing: .append([line("c")]))
    #expect(seen.fromStart && seen.lines == [line("a"), line("b")] && seen.lineCount == 2)
    let next = try look(one)
    #expect(!next.fromStart && next.lines == [line("c")] && next.lineCount == 3)
    #expect(try look(one).lines.isEmpty)
    #expect(try lines(of: folder.file("j")) == ["a", "b", "c"])
  }

  /// The file's lines after its generation line.
  private func lines(of file: URL) throws -> [Substring] {
    let all = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
    #expect(all.first?.hasPrefix("#journal ") == true)
    return Array(all.dropFirst())
  }

  @Test func aReplacedJournalIsReadFromItsStartByTheOthers() throws {
    let folder = try TemporaryFolder()
    let (one, two) = (Journal(url: folder.file("j")), Journal(url: folder.file("j")))
    _ = try look(one, writing: .append([line("a"), line("b"), line("c")]))
    _ = try look(two)
    _ = try look(one, writing: .replace([line("z")]))
    let seen = try look(two)
    #expect(seen.fromStart && seen.lines == [line("z")] && seen.lineCount == 1)
    let own = try look(one)
    #expect(!own.fromStart && own.lines.isEmpty && own.lineCount == 1)
    #expect(try lines(of: folder.file("j")) == ["z"])
  }

  @Test func aJournalRemovedWhileOpenIsStartedAnewUnderItsName() throws {
    let folder = try TemporaryFolder()
    let journal = Journal(url: folder.file("j"))
    _ = try look(journal, writing: .append([line("a"), line("b")]))
    try FileManager.default.removeItem(at: folder.file("j"))
    let seen = try look(journal, writing: .append([line("c")]))
    #expect(seen.fromStart && seen.lines.isEmpty && seen.lineCount == 0)
    #expect(try lines(of: folder.file("j")) == ["c"])
  }

  @Test func aNewFileOnTheOldInodeIsStillReadFromItsStart() throws {
    let folder = try TemporaryFolder()
    let (one, two) = (Journal(url: folder.file("j")), Journal(url: folder.file("j")))
    _ = try look(one, writing: .append([line("a"), line("b")]))
    _ = try look(two)
    // Another file of the same size in the same inode, as a reused inode number looks: only
    // its generation line tells it apart.
    let handle = try FileHandle(forWritingTo: folder.file("j"))
    try handle.write(contentsOf: Data("#journal 0\nx\ny\n".utf8))
    try handle.truncate(atOffset: try handle.offset())
    try handle.close()
    let seen = try look(two)
    #expect(seen.fromStart && seen.lines == [line("x"), line("y")])
  }

  @Test func aLineCutByACrashIsRemoved() throws {
    let folder = try TemporaryFolder()
    try Data("a\nb\nhalf a li".utf8).write(to: folder.file("j"))
    let journal = Journal(url: folder.file("j"))
    let seen = try look(journal, writing: .append([line("c")]))
    #expect(seen.lines == [line("a"), line("b")])
    #expect(try String(contentsOf: folder.file("j"), encoding: .utf8) == "a\nb\nc\n")
  }

  @Test func aFailedTransactionWritesNothingAndTheNextReadsFromTheStart() throws {
    struct Refused: Error {}
    let folder = try TemporaryFolder()
    let journal = Journal(url: folder.file("j"))
    _ = try look(journal, writing: .append([line("a")]))
    #expect(throws: Refused.self) {
      try journal.transaction { _ -> (Journal.Write, Void) in throw Refused() }
    }
    let after = try look(journal)
    #expect(after.fromStart && after.lines == [line("a")])
  }
}
