import Foundation
import ResponseCodeStore
import ResponseCodeStoreLive
import Testing

@Suite struct ResponseCodeStoreLiveTests {
  @Test func keepsTheLastCodeAcrossInstancesInItsFile() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("ResponseCodeStoreLiveTests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let code = UUID()

    try await ResponseCodeStore.live(directory: directory)
      .save(ResponseCodeStore.lastResponseCodeKey, code)

    let reopened = ResponseCodeStore.live(directory: directory)
    #expect(try await reopened.load(ResponseCodeStore.lastResponseCodeKey) == code)
    let json = try String(
      contentsOf: directory.appendingPathComponent("response-codes.json"), encoding: .utf8)
    #expect(json.contains(code.uuidString))
  }
}
