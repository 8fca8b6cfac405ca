import Foundation
import LogAnalysisTestSupport
import Testing

@testable import LogAnalysisLive

@Suite struct FileReadingTests {
  @Test(arguments: [(1, 1 << 20), (3, 50), (7, 1000), (64, 300)])
  func readingAFileInBlocksEqualsOnePassInMemory(chunks: Int, blockSize: Int) throws {
    var generator = SplitMix(seed: UInt64(chunks * blockSize))
    let visits = (0..<400).map { _ in
      ("client\(generator.next() % 9)", "/page\(generator.next() % 5)")
    }
    let text = log(visits) + line("last", "/no-newline")
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("LogAnalysisTests-\(UUID().uuidString).log")
    defer { try? FileManager.default.removeItem(at: url) }
    try Data(text.utf8).write(to: url)
    let fromFile = try LogAnalyzer.analyze(
      fileAt: url, options: AnalysisOptions(), chunks: chunks, blockSize: blockSize)
    let inMemory = analyze(text, chunks: 1)
    #expect(ranked(fromFile) == ranked(inMemory))
    #expect(fromFile.lines == inMemory.lines)
    #expect(fromFile.lines == 401)
  }

  @Test func aMissingFileThrows() {
    #expect(throws: (any Error).self) {
      try LogAnalyzer.analyze(
        fileAt: URL(fileURLWithPath: "/nonexistent"), options: AnalysisOptions())
    }
  }
}
