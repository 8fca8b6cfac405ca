import Foundation
import LogAnalysisTestSupport
import Testing

@testable import LogAnalysisLive

@Suite struct PartialFilesTests {
  private let visits = (0..<200).map { index in ("c\(index % 5)", "/p\((index * 31) % 9)") }
  private let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("PartialFilesTests-\(UUID().uuidString)")

  /// Writes `partial` (with its index when `indexed`) to a file named `name` and returns its
  /// path.
  private func write(_ partial: Partial, _ name: String, indexed: Bool = false) throws -> String {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent(name)
    try partial.serialized(indexed: indexed).write(to: file)
    return file.path
  }

  /// What `merge` gives for the files at `paths`, or with `joining`, what `join` gives.
  private func combined(_ paths: [String], joining: Bool) throws -> (any RankedAnalysis, Int)? {
    joining ? try PartialFiles.join(paths) : try PartialFiles.merge(paths)
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

  /// Files written with their index are joined where they lie: what their merge gives; one
  /// without its index, or more than 16 of them, leave them to `merge`.
  @Test func indexedFilesJoinToWhatTheyMerge() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    var first = analyze(log(Array(visits[..<90])), options: AnalysisOptions(sessionGap: 60))
    first.source = PartialSource(input: "a.log", bytes: 1)
    var second = analyze(log(Array(visits[90...])), options: AnalysisOptions(sessionGap: 60))
    second.source = PartialSource(input: "b.log", bytes: 2)
    let paths = [
      try write(first, "1.partial", indexed: true), try write(second, "2.partial", indexed: true),
    ]
    let (joined, bytes) = try #require(try PartialFiles.join(paths))
    let (merged, mergedBytes) = try PartialFiles.merge(paths)
    #expect(ranked(joined) == ranked(merged) && !ranked(joined).isEmpty)
    #expect(joined.pathCount == merged.pathCount && joined.clientCount == 5)
    #expect(bytes == mergedBytes)
    let plain = try write(second, "3.partial")
    #expect(try PartialFiles.join([paths[0], plain]) == nil)
    // Past 16 they load: the join would look at each part's next entry for every hash.
    #expect(try PartialFiles.join(Array(repeating: paths[0], count: 17)) == nil)
  }

  @Test(arguments: [false, true])
  func thePartOfOneRunTwiceIsRefused(joining: Bool) throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    var part = analyze(log(visits))
    part.source = PartialSource(input: "a.log", bytes: 10)
    let path = try write(part, "1.partial", indexed: joining)
    let copy = try write(part, "2.partial", indexed: joining)
    #expect {
      try combined([path, copy], joining: joining)
    } throws: { error in
      "\(error)".hasPrefix("\(path) and \(copy) are ")
        && "\(error)".hasSuffix(": merging would count it twice")
    }
  }

  /// The splits of a file go in the order of their ranges, as its lines do; splits of other
  /// files, in any order.
  @Test(arguments: [false, true])
  func splitsOfAFileOutOfOrderAreRefused(joining: Bool) throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    var paths: [String] = []
    for (number, (file, range)) in [("a.log", 0..<50), ("b.log", 0..<9), ("a.log", 50..<90)]
      .enumerated()
    {
      var part = analyze(log(Array(visits[range])))
      part.source = .split(of: file, range: range, bytes: range.count)
      paths.append(try write(part, "\(number).partial", indexed: joining))
    }
    #expect(try combined(paths, joining: joining) != nil)
    #expect(try combined([paths[1], paths[0], paths[2]], joining: joining) != nil)
    #expect(
      throws: PartialFileError(
        description: "\(paths[0]) (a.log bytes 0-50) comes after \(paths[2]) (a.log bytes 50-90): "
          + "give the splits of a file in the order of their byte ranges")
    ) {
      try combined([paths[2], paths[1], paths[0]], joining: joining)
    }
  }

  @Test(arguments: [false, true])
  func otherOptionsAFolderAndAMissingFileAreNamed(joining: Bool) throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let three = try write(analyze(log(visits)), "3.partial", indexed: joining)
    let four = try write(
      analyze(log(visits), options: AnalysisOptions(length: 4)), "4.partial", indexed: joining)
    #expect(
      throws: PartialFileError(description: "\(four) was analysed with other options than \(three)")
    ) {
      try combined([three, four], joining: joining)
    }
    #expect(
      throws: PartialFileError(
        description: "\(folder.path): not a regular file, so not a partial result")
    ) {
      try combined([folder.path], joining: joining)
    }
    #expect { try combined([folder.path + "/none"], joining: joining) } throws: {
      "\($0)" == "cannot open \(folder.path)/none: No such file or directory"
    }
  }
}
