import ArgumentParser
import Foundation
import LogAnalysis

/// `fetcher analyze INPUT`: the most common sequences of page visits in an access log.
struct AnalyzeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "analyze",
    abstract: "Find the most common sequences of consecutive page visits per client.",
    discussion: "INPUT is a file, or - for standard input.")

  @Argument(help: "The access log: a file, or - for standard input.")
  var input: String

  @Option(help: "Pages per sequence, 2 to 10.")
  var length = 3

  @Option(help: "How many sequences to show; 0 for all.")
  var top = 10

  @Flag(name: .customLong("unique-clients"), help: "Count distinct clients, not occurrences.")
  var uniqueClients = false

  @Flag(name: .customLong("strip-query"), help: "Drop ?… from pages.")
  var stripQuery = false

  @Flag(name: .customLong("exclude-static"), help: "Leave out images, CSS, JS and fonts.")
  var excludeStatic = false

  @Flag(help: "Print JSON.")
  var json = false

  @Flag(help: "Print CSV.")
  var csv = false

  func validate() throws {
    guard (2...10).contains(length) else { throw ValidationError("--length must be 2 to 10") }
    guard top >= 0 else { throw ValidationError("--top must be 0 or more") }
    guard !(json && csv) else { throw ValidationError("choose one of --json and --csv") }
  }

  func run() async throws {
    let options = AnalysisOptions(
      length: length, uniqueClients: uniqueClients, stripQuery: stripQuery,
      excludeStatic: excludeStatic)
    let started = ContinuousClock.now
    let (partial, bytes) = try await failingWithReason { try analyze(options: options) }
    let elapsed = ContinuousClock.now - started
    let report = AnalysisReport(partial: partial, top: top)
    let text = json ? report.json() : csv ? report.csv() : report.table()
    FileHandle.standardOutput.write(Data(text.utf8))
    Terminal.writeError(report.summary(bytes: bytes, elapsed: elapsed) + "\n")
  }

  /// The analysis of the input, and its size in bytes.
  private func analyze(options: AnalysisOptions) throws -> (Partial, Int) {
    if input == "-" {
      var bytes = 0
      let partial = try LogAnalyzer.analyze(
        reading: {
          let block = try FileHandle.standardInput.read(upToCount: 4 << 20)
          bytes += block?.count ?? 0
          return block
        }, options: options)
      return (partial, bytes)
    }
    let url = URL(fileURLWithPath: input)
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
      throw AnalyzeError("\(input): no such file")
    }
    guard !isFolder.boolValue else { throw AnalyzeError("\(input) is a folder") }
    guard FileManager.default.isReadableFile(atPath: url.path) else {
      throw AnalyzeError("\(input): permission denied")
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    return (try LogAnalyzer.analyze(fileAt: url, options: options), size)
  }
}

struct AnalyzeError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
