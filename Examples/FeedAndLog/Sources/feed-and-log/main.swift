// Downloads a songs feed with the download manager, lists its songs with XMLPathParser, and
// prints the most common three-page paths of an access log with LogAnalysis, and the statuses
// of its lines with LogFormats' line reader.
//
// Usage: feed-and-log FEED-URL ACCESS-LOG
import DownloadClient
import DownloadClientLive
import Foundation
import HTTPClientLive
import LogAnalysisLive
import LogFormats
import ReachabilityLive
import XMLPathParser

/// Says what went wrong on standard error and ends with status 1.
func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("feed-and-log: \(message)\n".utf8))
  exit(1)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let feedURL = URL(string: arguments.first!) else {
  fail("usage: feed-and-log FEED-URL ACCESS-LOG")
}
let logPath = arguments.last!

// The download manager keeps its queue in a state folder; here both are temporary.
let work = FileManager.default.temporaryDirectory.appendingPathComponent(
  "feed-and-log-\(UUID().uuidString)", isDirectory: true)
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: work) }
let client = DownloadClient.live(
  configuration: DownloadConfiguration(outputDirectory: work),
  stateDirectory: work.appendingPathComponent("state", isDirectory: true),
  http: .live(), reachability: .live())

let feedFile: URL
do {
  guard let file = try await client.download(DownloadRequest(url: feedURL)).destination else {
    fail("the download ended without its file")
  }
  feedFile = file
} catch {
  fail("the feed did not download: \(error)")
}

// The songs: each entry's name and artist, matched by path as the parser streams the feed.
let parser = try XMLPathParser(["feed.entry.im:name": "name", "feed.entry.im:artist": "artist"])
var song: [String: String] = [:]
var songs = 0
try parser.parse(Data(contentsOf: feedFile)) { match in
  song[match.id] = match.text
  guard let name = song["name"], let artist = song["artist"] else { return }
  songs += 1
  print("\(songs). \(name) — \(artist)")
  song = [:]
}

// The log: the three most common sequences of three pages visited in a row by one client.
let analysis = try LogInput.analyze([logPath], options: AnalysisOptions(length: 3))
print("\nmost common paths in \(logPath):")
for sequence in analysis.partial.ranking(top: 3) {
  print(sequence.count, sequence.pageTexts.joined(separator: " → "))
}

// The same log line by line, with LogFormats alone: how many lines have each status.
let log = try String(contentsOfFile: logPath, encoding: .utf8)
let reader = try LogLineReader(LogLineReader.format(of: log), header: log)
var statuses: [Int: Int] = [:]
for text in log.split(separator: "\n") {
  guard let status = reader.read(String(text))?.status else { continue }
  statuses[status, default: 0] += 1
}
print(
  "\nstatuses:",
  statuses.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))
