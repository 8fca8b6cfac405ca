import Foundation
import Testing

@testable import LogAnalysis

/// `analyze --state`: runs between which the log grows and is rotated count every line once,
/// as one run over all the lines does.
@Suite struct LogStateTests {
  private let folder: URL
  private var file: URL { folder.appendingPathComponent("access.log") }

  init() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("LogStateTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

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

  /// One scheduled run: reads what is new, adds it to the state, keeps the state.
  private func run(_ state: inout LogState?, options: AnalysisOptions = AnalysisOptions())
    throws -> [String]
  {
    let reading = try LogState.readNew(
      file.path, since: state?.position, options: options, format: nil)
    var partial = state?.partial ?? Partial(options: options)
    partial.append(reading.partial)
    state = try LogState(
      serialized: LogState(partial: partial, position: reading.position).serialized())
    return reading.notes
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

  @Test(arguments: [1, 2, 3, 4, 5, 6])
  func everyLineIsCountedOnceWhateverTheCutsAndRotations(seed start: Int) throws {
    var seed = UInt64(start)
    let all = visits(600, seed: &seed)
    let text = log(all)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      .map { $0 + "\n" }
    var state: LogState?
    var index = 0
    var step = 0
    var rotations = 0
    while index < lines.count {
      // A random number of lines, the last one sometimes half written.
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let count = min(lines.count - index, Int(seed >> 58) + 1)
      let chunk = lines[index..<index + count].joined()
      let cut = (seed >> 50) % 3 == 0 ? chunk.count - 7 : chunk.count
      try append(String(chunk.prefix(cut)), to: file)
      #expect(try run(&state).isEmpty)
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
    }
    #expect(try run(&state).isEmpty)
    let counted = try #require(state).partial
    #expect(counted.lines == all.count)
    #expect(ranked(counted) == naiveRanking(all, length: 3))
    #expect(step > 3 && rotations > 0)
  }

  @Test func aRotationWhoseOldFileIsGoneIsSaid() throws {
    try append(log([("a", "/1"), ("a", "/2")]), to: file)
    var state: LogState?
    _ = try run(&state)
    try FileManager.default.removeItem(at: file)
    try append(log([("a", "/3")]), to: file)
    let notes = try run(&state)
    #expect(notes.count == 1)
    #expect(notes.first?.contains("neither \(file.path).1 nor \(file.path).1.gz") == true)
    #expect(state?.partial.lines == 3)
  }

  @Test func aStateThatIsNotOneIsRefused() {
    #expect(throws: LogStateError("not a state file of fetcher analyze")) {
      try LogState(serialized: Data("fetcher-partial-6\nxx".utf8))
    }
    #expect(throws: LogStateError("its position cannot be read")) {
      try LogState(serialized: Data("fetcher-state-1\n{not json}\n".utf8))
    }
    #expect {
      try LogState(
        serialized: Data(
          "fetcher-state-1\n{\"path\":\"a\",\"device\":1,\"inode\":2,\"offset\":3,\"head\":\"\"}\nbad"
            .utf8))
    } throws: { error in
      (error as? LogStateError)?.description.hasPrefix("its result cannot be read") == true
    }
  }
}
