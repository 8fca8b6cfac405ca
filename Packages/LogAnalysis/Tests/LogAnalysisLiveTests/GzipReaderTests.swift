import Foundation
import LogAnalysisTestSupport
import Testing

@testable import LogAnalysisLive

@Suite struct GzipReaderTests {
  /// `text` compressed by the system's gzip.
  private func gzip(_ text: String) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/gzip")
    process.arguments = ["-c"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data(text.utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return data
  }

  private func inflate(_ data: Data, piece: Int) throws -> Data {
    var remaining = data
    let reader = try GzipReader(reading: {
      defer { remaining = remaining.dropFirst(piece) }
      return Data(remaining.prefix(piece))
    })
    var result = Data()
    while let chunk = try reader.next() { result.append(chunk) }
    return result
  }

  @Test(arguments: [1, 7, 4096])
  func inflatesWhateverThePieces(piece: Int) throws {
    let text = log((0..<200).map { ("c\($0 % 5)", "/p\($0 % 9)") })
    #expect(try inflate(try gzip(text), piece: piece) == Data(text.utf8))
  }

  @Test func readsConcatenatedMembers() throws {
    let data = try gzip("first\n") + gzip("second\n")
    #expect(try inflate(data, piece: 5) == Data("first\nsecond\n".utf8))
  }

  @Test func truncatedAndInvalidDataAreErrors() throws {
    let data = try gzip(String(repeating: "line\n", count: 1000))
    #expect(throws: GzipError.self) { try inflate(data.prefix(data.count / 2), piece: 100) }
    #expect(throws: GzipError.self) { try inflate(Data("plain text".utf8), piece: 100) }
  }
}
