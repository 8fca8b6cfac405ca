import Foundation
import LogAnalysisTestSupport
import Testing

@testable import LogAnalysisLive

/// `analyze --state`: runs between which the log grows and is rotated count every line once,
/// as one run over all the lines does.
@Suite final class LogStateTests {
  private let folder: URL
  private var file: URL { folder.appendingPathComponent("access.log") }

  init() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("LogStateTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: folder) }

  /// Random visits of a few clients to a few pages.
  private func visits(_ count: Int, seed: inout UInt64) -> [(String, String)] {
    (0..<count).map { _ in
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let client = "10.0.0.\(seed >> 60)"
      let page = "/p\((seed >> 40) % 5)"
      return (client, page)
    }
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

  /// When a run writes a new base: always, never (but the first), or the rule of `--state`.
  enum Rewrites: CaseIterable {
    case always, never, byRule
  }

  /// The state file of these tests.
  private func stateFile(_ rewrites: Rewrites = .byRule) -> StateFile {
    let path = folder.appendingPathComponent("state").path
    switch rewrites {
    case .always: return StateFile(path: path) { _, _ in true }
    case .never: return StateFile(path: path) { _, _ in false }
    case .byRule: return StateFile(path: path)
    }
  }

  /// One scheduled run: reads what is new, adds it to the state, keeps the state; returns the
  /// result of all lines so far, and what could not be read.
  private func run(
    options: AnalysisOptions = AnalysisOptions(), rewrites: Rewrites = .byRule
  ) throws -> (result: any RankedAnalysis, notes: [String]) {
    let state = stateFile(rewrites)
    let saved = try state.load()
    let reading = try LogState.readNew(
      file.path, since: saved?.position, options: options, format: nil)
    return (try state.save(reading, after: saved).result, reading.notes)
  }

  private func gzip(_ url: URL) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/gzip")
    process.arguments = ["-f", url.path]
    try process.run()
    process.waitUntilExit()
  }

  /// The ways a log changes between two runs.
  enum Change: CaseIterable {
    case append, renamed, compressed, copiedAndTruncated
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6], Rewrites.allCases)
  func everyLineIsCountedOnceWhateverTheCutsAndRotations(seed: Int, rewrites: Rewrites)
    throws
  {
    try countsEveryLineOnce(seed: seed, rewrites: rewrites, w3c: false)
  }

  /// A W3C log's lines read by the `#Fields:` line before them, which a run that starts
  /// within the log does not see: the state keeps it. Each file starts with a header, as IIS
  /// writes one, and a restart of the server writes another with the fields in another order.
  @Test(arguments: [1, 2, 3], Rewrites.allCases)
  func aW3CLogIsCountedOnceToo(seed: Int, rewrites: Rewrites) throws {
    try countsEveryLineOnce(seed: seed, rewrites: rewrites, w3c: true)
  }

  /// A W3C line of `client` visiting `page`, its fields in one of two orders.
  private func w3cLine(_ client: String, _ page: String, order: Int) -> String {
    order == 0
      ? "2024-05-01 10:00:00 \(client) GET \(page) 200"
      : "\(page) \(client) 2024-05-01 10:00:00 200 GET"
  }

  private static let w3cFields = [
    "#Fields: date time c-ip cs-method cs-uri-stem sc-status",
    "#Fields: cs-uri-stem c-ip date time sc-status cs-method",
  ]

  /// Appends `visits` to the log in random pieces, some cutting a line in two, and rotates it
  /// in random ways between runs; checks every run's result against the lines whole so far.
  private func countsEveryLineOnce(seed start: Int, rewrites: Rewrites, w3c: Bool) throws {
    var seed = UInt64(start)
    let all = visits(600, seed: &seed)
    var index = 0
    var step = 0
    var rotations = 0
    var order = 0
    while index < all.count {
      // A random number of lines, the last one sometimes half written.
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let count = min(all.count - index, Int(seed >> 58) + 1)
      var chunk = ""
      if w3c {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size]) as? Int
        if size ?? 0 == 0 || (seed >> 30) % 4 == 0 {
          order = Int(seed >> 20) % 2
          chunk = "#Software: a test\n#Version: 1.0\n\(Self.w3cFields[order])\n"
        }
        chunk += all[index..<index + count].map { w3cLine($0.0, $0.1, order: order) + "\n" }
          .joined()
      } else {
        chunk = log(Array(all[index..<index + count]))
      }
      let cut = (seed >> 50) % 3 == 0 ? chunk.count - 7 : chunk.count
      try append(String(chunk.prefix(cut)), to: file)
      let (result, notes) = try run(rewrites: rewrites)
      #expect(notes.isEmpty)
      // Every whole line so far; a half-written one waits for the next run.
      let whole = index + count - (cut < chunk.count ? 1 : 0)
      #expect(result.lines == whole)
      #expect(ranked(result) == naiveRanking(Array(all[..<whole]), length: 3))
      try append(String(chunk.dropFirst(cut)), to: file)
      index += count
      step += 1
      let change = Change.allCases[Int(seed >> 40) % Change.allCases.count]
      if change != .append { rotations += 1 }
      switch change {
      case .append:
        break
      case .renamed:
        try? FileManager.default.removeItem(atPath: file.path + ".1")
        try FileManager.default.moveItem(atPath: file.path, toPath: file.path + ".1")
      case .compressed:
        try? FileManager.default.removeItem(atPath: file.path + ".1.gz")
        try? FileManager.default.removeItem(atPath: file.path + ".1")
        try FileManager.default.moveItem(atPath: file.path, toPath: file.path + ".1")
        try gzip(URL(fileURLWithPath: file.path + ".1"))
      case .copiedAndTruncated:
        try? FileManager.default.removeItem(atPath: file.path + ".1")
        try FileManager.default.copyItem(atPath: file.path, toPath: file.path + ".1")
        try FileHandle(forWritingTo: file).truncate(atOffset: 0)
      }
      if !FileManager.default.fileExists(atPath: file.path) { try append("", to: file) }
      if change != .append && (seed >> 10) % 2 == 0 {
        // A run before anything is written to the new file.
        let (result, notes) = try run(rewrites: rewrites)
        #expect(notes.isEmpty)
        #expect(result.lines == index)
      }
    }
    let (counted, notes) = try run(rewrites: rewrites)
    #expect(notes.isEmpty)
    #expect(counted.lines == all.count)
    #expect(ranked(counted) == naiveRanking(all, length: 3))
    #expect(step > 3 && rotations > 0)
  }

  /// The file is told by its device and inode as `stat` gives them; a position of an earlier
  /// version, whose device is 0, by its inode.
  @Test func aPositionNamesItsFileByDeviceAndInode() throws {
    try append(log([("a", "/1"), ("a", "/2")]), to: file)
    let first = try LogState.readNew(file.path, since: nil, options: AnalysisOptions(), format: nil)
    var status = stat()
    #expect(stat(file.path, &status) == 0)
    #expect(first.position.device == UInt64(status.st_dev) && first.position.device != 0)
    #expect(first.position.inode == UInt64(status.st_ino))
    try append(log([("a", "/3")]), to: file)
    var old = first.position
    old.device = 0
    let next = try LogState.readNew(file.path, since: old, options: AnalysisOptions(), format: nil)
    #expect(next.partial.lines == 1 && next.notes.isEmpty)
    var other = first.position
    other.device += 1
    let moved = try LogState.readNew(
      file.path, since: other, options: AnalysisOptions(), format: nil)
    #expect(moved.partial.lines == 3 && moved.notes.count == 1)
  }

  @Test func aRotationWhoseOldFileIsGoneIsSaid() throws {
    try append(log([("a", "/1"), ("a", "/2")]), to: file)
    _ = try run()
    try FileManager.default.removeItem(at: file)
    try append(log([("a", "/3")]), to: file)
    let (result, notes) = try run()
    #expect(notes.count == 1)
    #expect(notes.first?.contains("neither \(file.path).1 nor \(file.path).1.gz") == true)
    #expect(result.lines == 3)
  }

  /// Writes `text`, then `data`, as the state file.
  private func writeState(_ text: String, _ data: Data = Data()) throws {
    try (Data(text.utf8) + data).write(to: URL(fileURLWithPath: stateFile().path))
  }

  @Test func aStateThatIsNotOneIsRefused() throws {
    try writeState("fetcher-partial-8\nxx")
    #expect(throws: LogStateError("not a state file of fetcher analyze")) {
      try stateFile().load()
    }
    try writeState("fetcher-state-1\n{}\n")
    #expect(
      throws: LogStateError(
        "a state of another fetcher version: remove it, and the next run reads the whole log")
    ) { try stateFile().load() }
    try writeState("fetcher-state-2\n{not json}\n")
    #expect(throws: LogStateError("its position cannot be read")) { try stateFile().load() }
    let position = #"{"path":"a","device":1,"inode":2,"offset":3,"head":""}"#
    // Without its base's name (a damaged key), it is not read as a state without a base.
    try writeState("fetcher-state-2\n{\"position\":\(position),\"ba#e\":\"x\"}\n")
    #expect(throws: LogStateError("its position cannot be read")) { try stateFile().load() }
    try writeState("fetcher-state-2\n{\"position\":\(position),\"base\":\"\"}\nbad")
    #expect {
      try stateFile().load()
    } throws: { error in
      (error as? LogStateError)?.description.hasPrefix("its result cannot be read") == true
    }
    let empty = Partial(options: AnalysisOptions()).serialized()
    for base in ["../state.base-0123456789abcdef", "state.base-0123456789abcdef"] {
      try writeState("fetcher-state-2\n{\"position\":\(position),\"base\":\"\(base)\"}\n", empty)
      #expect {
        try stateFile().load()
      } throws: { error in
        let text = (error as? LogStateError)?.description ?? ""
        return text.hasPrefix("it names a base that is not its own")
          || text.hasPrefix("its base state.base-0123456789abcdef cannot be read")
      }
    }
  }

  @Test func aWholeStateIsOnePieceOfDataToo() throws {
    try append(log([("a", "/1"), ("a", "/2"), ("b", "/1"), ("a", "/3")]), to: file)
    let reading = try LogState.readNew(
      file.path, since: nil, options: AnalysisOptions(), format: nil)
    let state = LogState(partial: reading.partial, position: reading.position)
    let again = try LogState(serialized: state.serialized())
    #expect(again.position == state.position)
    #expect(ranked(again.partial) == ranked(state.partial))
    #expect(throws: LogStateError("not a state of fetcher analyze")) {
      try LogState(serialized: Data("fetcher-state-2\n".utf8))
    }
  }

  @Test func aRunWritesOneBaseAndRemovesTheOthers() throws {
    try append(log([("a", "/1"), ("a", "/2"), ("a", "/3")]), to: file)
    let stray = folder.appendingPathComponent("state.base-00000000000000aa")
    try Data("left by a run killed before it named its base".utf8).write(to: stray)
    let other = folder.appendingPathComponent("other.base-00000000000000aa")
    try Data().write(to: other)
    _ = try run(rewrites: .always)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(names.count == 4)
    #expect(names.filter { $0.hasPrefix("state.base-") }.count == 1)
    #expect(names.contains("other.base-00000000000000aa"))
    #expect(!names.contains("state.base-00000000000000aa"))
  }

  @Test func aLockThatIsALinkOrAFIFOIsRefusedAndLeftAlone() throws {
    let lock = stateFile().path + ".lock"
    let victim = folder.appendingPathComponent("victim")
    try Data("precious".utf8).write(to: victim)
    try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: victim.path)
    #expect(throws: LogStateError("cannot open \(lock): it is a symbolic link")) {
      try stateFile().lock()
    }
    #expect(try Data(contentsOf: victim) == Data("precious".utf8))
    try FileManager.default.removeItem(atPath: lock)
    #expect(mkfifo(lock, 0o600) == 0)
    #expect(throws: LogStateError("cannot open \(lock): it is not a regular file")) {
      try stateFile().lock()
    }
  }

  @Test func aSecondRunWaitsForNone() throws {
    let lock = try stateFile().lock()
    #expect(
      throws: LogStateError(
        "another fetcher analyze is using it (\(stateFile().path).lock is locked)")
    ) {
      try stateFile().lock()
    }
    _ = lock
  }
}
