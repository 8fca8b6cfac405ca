import Foundation
import Testing

@testable import fetcher

/// What the repository's front door says, held to what is there: the two commands of the
/// README are the scripts that exist and the one CI runs, and the version has one source.
@Suite struct RepositoryTests {
  private let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  private func text(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// The commands of the README's first shell block, one a line (comments dropped).
  private func readmeCommands() throws -> [String] {
    let readme = try text("README.md")
    let block = try #require(
      readme.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```")
        .first)
    return block.split(separator: "\n")
      .map { $0.prefix { $0 != "#" }.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
  }

  @Test func theReadmesTwoCommandsRunTheMainJobAndTheTestsAndCIRunsTheSecond() throws {
    let commands = try readmeCommands()
    #expect(commands == ["Scripts/run.sh", "Scripts/test.sh"])
    for command in commands {
      #expect(
        FileManager.default.isExecutableFile(atPath: root.appendingPathComponent(command).path))
    }
    let ci = try text(".ci/run").split(separator: "\n").map(String.init)
    #expect(ci.contains(commands[1]))
    #expect(
      !ci.contains {
        $0.hasPrefix("timeout") && $0.contains("swift test") && !$0.contains("--package-path")
      })
  }

  @Test func theVersionIsTheNewestReleaseOfTheChangelog() throws {
    let changelog = try text("CHANGELOG.md")
    let newest = try #require(
      changelog.split(separator: "\n").first { line in
        line.hasPrefix("## ") && line.dropFirst(3).split(separator: ".").count == 3
          && line.dropFirst(3).allSatisfy { $0.isNumber || $0 == "." }
      })
    #expect(Fetcher.configuration.version == String(newest.dropFirst(3)))
  }
}
