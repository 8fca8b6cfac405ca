import Foundation
import LogAnalysisTestSupport
import Testing

@testable import LogAnalysisLive

@Suite struct PartialFilesTests {
  private let visits = (0..<200).map { index in ("c\(index % 5)", "/p\((index * 31) % 9)") }
  private let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("PartialFilesTests-\(UUID().uuidString)")

  /// Writes `partial` to a file named `name` and returns its path.
  private func write(_ partial: Partial, _ name: String) throws -> String {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent(name)
    try partial.serialized().write(to: file)
    return file.path
  }

  @Test func filesMergeInOrderToOnePass() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    var first = analyze(log(Array(visits[..<120])))
    first.source = PartialSource(input: "a.log", bytes: 1)
    var second = analyze(log(Array(visits[120...])))
    second.source = PartialSource(input: "b.log", bytes: 2)
    let paths = [try write(first, "1.partial"), try write(second, "2.partial")]
    let (merged, bytes) = try PartialFiles.merge(paths)
    #expect(ranked(merged) == ranked(analyze(log(visits))))
    #expect(bytes == first.serialized().count + second.serialized().count)
  }

  @Test func thePartOfOneRunTwiceIsRefused() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    var part = analyze(log(visits))
    part.source = PartialSource(input: "a.log", bytes: 10)
    let path = try write(part, "1.partial")
    let copy = try write(part, "2.partial")
    #expect {
      try PartialFiles.merge([path, copy])
    } throws: { error in
      "\(error)".hasPrefix("\(path) and \(copy) are ")
        && "\(error)".hasSuffix(": merging would count it twice")
    }
  }

  @Test func otherOptionsAFolderAndAMissingFileAreNamed() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let three = try write(analyze(log(visits)), "3.partial")
    let four = try write(analyze(log(visits), options: AnalysisOptions(length: 4)), "4.partial")
    #expect(
      throws: PartialFileError(description: "\(four) was analysed with other options than \(three)")
    ) {
      try PartialFiles.merge([three, four])
    }
    #expect(
      throws: PartialFileError(
        description: "\(folder.path): not a regular file, so not a partial result")
    ) {
      try PartialFiles.merge([folder.path])
    }
    #expect { try PartialFiles.merge([folder.path + "/none"]) } throws: {
      "\($0)" == "cannot open \(folder.path)/none: No such file or directory"
    }
  }
}
