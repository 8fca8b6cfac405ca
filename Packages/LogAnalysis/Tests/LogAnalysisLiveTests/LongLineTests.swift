import Foundation
import LogAnalysisTestSupport
import Testing

@testable import LogAnalysisLive
@testable import LogFormats

/// Lines longer than `LineLimit.maxLength` are one malformed line each, however the log is
/// read, and the lines around them count as usual.
@Suite struct LongLineTests {
  private let bound = LineLimit.maxLength

  /// Visits of `a` to /1, /2, /3, with `junk` as the second line.
  private func log(around junk: String) -> String {
    [line("a", "/1"), junk, line("a", "/2"), line("a", "/3")].joined(separator: "\n") + "\n"
  }

  /// The analysis of `text` written to a file and read with `pread` in small blocks, as a
  /// stream in small pieces, in memory, and with the LogFormat reader: the same counts.
  private func readEveryWay(_ text: String) throws -> [Partial] {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("LongLineTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("access.log")
    try Data(text.utf8).write(to: file)
    let options = AnalysisOptions()
    let fromFile = try LogAnalyzer.analyze(
      fileAt: file, options: options, chunks: 3, blockSize: 4096)
    var pieces = Data(text.utf8)[...]
    let streamed = try LogAnalyzer.analyze(
      reading: {
        defer { pieces = pieces.dropFirst(70_000) }
        return Data(pieces.prefix(70_000))
      }, options: options, blockSize: 100_000)
    let withLayout = try LogAnalyzer.analyze(
      fileAt: file, options: AnalysisOptions(filters: VisitFilters(methods: ["GET"])), chunks: 2,
      blockSize: 8192)
    return [fromFile, streamed, analyze(text), withLayout]
  }

  @Test func aLineOverTheBoundIsOneMalformedLine() throws {
    let long = line("a", "/x") + String(repeating: "z", count: bound)
    for partial in try readEveryWay(log(around: long)) {
      #expect(partial.lines == 4)
      #expect(partial.malformedLines == 1)
      #expect(ranked(partial) == ["/1-/2-/3:1"])
      #expect(partial.firstMalformedLine?.hasPrefix("a - - [10/Oct/2000") == true)
    }
  }

  @Test func aLineOfTheBoundIsStillALine() throws {
    let padding = bound - line("b", "/x").utf8.count
    let long = line("b", "/x").dropLast() + String(repeating: "z", count: padding) + "\""
    #expect(long.utf8.count == bound)
    for partial in try readEveryWay(log(around: String(long))) {
      #expect(partial.lines == 4)
      #expect(partial.malformedLines == 0)
      #expect(partial.clientCount == 2)
    }
  }

  @Test func aLastLineOverTheBoundWithoutNewlineIsMalformedToo() throws {
    let text = log(around: line("a", "/2")) + String(repeating: "q", count: 3 * bound)
    for partial in try readEveryWay(text) {
      #expect(partial.lines == 5)
      #expect(partial.malformedLines == 1)
    }
  }

  @Test func theAssemblerCarriesAtMostTheBound() {
    var assembler = LineAssembler()
    var lines: [Int] = []
    let piece = [UInt8](repeating: UInt8(ascii: "x"), count: 300_000)
    func collect(_ block: UnsafeRawBufferPointer) {
      lines += block.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        .dropLast().map(\.count)
    }
    for _ in 0..<20 { piece.withUnsafeBytes { assembler.append($0, collect) } }
    Array("\nok\nend".utf8).withUnsafeBytes { assembler.append($0, collect) }
    assembler.finish { lines.append($0.count) }
    #expect(lines == [bound + 1, 2, 3])
  }
}
