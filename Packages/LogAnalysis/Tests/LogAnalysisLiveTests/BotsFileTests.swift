import Foundation
import LogAnalysisLive
import Testing

@Suite struct BotsFileTests {
  @Test func aBotsFileThatIsNotUTF8TextIsAnError() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("bots-\(UUID().uuidString)").path
    #expect(FileManager.default.createFile(atPath: path, contents: Data([0xFF, 0xFE, 0x41])))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(throws: AnalysisOptionError("cannot read \(path) as UTF-8 text")) {
      try BotPatterns.listed(inFileAt: path)
    }
    #expect(throws: AnalysisOptionError.self) { try BotPatterns.listed(inFileAt: path + ".none") }
  }
}
