import Foundation
import LogAnalysisTestSupport
import Synchronization
import Testing

@testable import LogAnalysisLive

/// `analyze --byte-range`: ranges that tile a file, analysed apart and appended in order, give
/// the analysis of the whole file, whatever the format and wherever the cuts fall.
@Suite struct ByteRangeTests {
  private let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("ByteRangeTests-\(UUID().uuidString)")

  /// Lines of one format, some junk among them (never first: the format is known by the
  /// first lines), a long line now and then.
  private func log(_ format: String, seed: UInt64, lines: Int) -> String {
    var generator = SplitMix(seed: seed)
    var text = ""
    if format == "w3c" {
      text += "#Software: IIS\n#Fields: date time c-ip cs-method cs-uri-stem sc-status\n"
    }
    for index in 0..<lines {
      let client = "10.0.0.\(generator.next() % 7)"
      let page = "/p\(generator.next() % 5)"
      let second = 10 + index % 50
      switch index == 0 ? 2 : generator.next() % 40 {
      case 0: text += "junk line \(index)\n"
      case 1: text += String(repeating: "x", count: 3000) + "\n"
      default:
        switch format {
        case "crlf":
          text += line(client, page) + "\r\n"
        case "w3c":
          if index == lines / 2 {
            // A new header part-way: the fields change order.
            text += "#Fields: date time cs-uri-stem c-ip sc-status\n"
          }
          text +=
            index >= lines / 2
            ? "2024-05-01 12:00:\(second) \(page) \(client) 200\n"
            : "2024-05-01 12:00:\(second) \(client) GET \(page) 200\n"
        case "json":
          text +=
            #"{"remote_addr":"\#(client)","request":"GET \#(page) HTTP/1.1","status":200,"time_local":"01/May/2024:12:00:\#(second) +0000"}"#
            + "\n"
        case "caddy":
          text +=
            #"{"level":"info","ts":17145648\#(second).5,"logger":"http.log.access","msg":"handled request","request":{"remote_ip":"\#(client)","method":"GET","uri":"\#(page)","headers":{"User-Agent":["curl/8"]}},"status":200,"size":12}"#
            + "\n"
        case "common":
          text +=
            #"\#(client) - - [01/May/2024:12:00:\#(second) +0000] "GET \#(page) HTTP/1.1" 200 512"#
            + "\n"
        case "vcombined":
          text +=
            #"example.com:80 \#(client) - - [01/May/2024:12:00:\#(second) +0000] "GET \#(page) HTTP/1.1" 200 512 "-" "curl/8""#
            + "\n"
        case "elb":
          text +=
            #"2015-05-13T23:39:\#(second).945958Z my-loadbalancer \#(client):2817 10.0.0.1:80 0.000073 0.001048 0.000057 200 200 0 29 "GET http://www.example.com:80\#(page) HTTP/1.1" "curl/7.38.0" - -"#
            + "\n"
        case "squid":
          text +=
            "12865363\(second).779    180 \(client) TCP_MISS/200 411 GET http://www.example.com\(page) - DIRECT/72.14.213.99 text/html\n"
        case "haproxy":
          text +=
            #"\#(client):33317 [06/Feb/2009:12:14:\#(second).655] http-in static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 "GET \#(page) HTTP/1.1""#
            + "\n"
        default:
          text += line(client, page) + "\n"
        }
      }
    }
    // No newline after the last line.
    return String(text.dropLast())
  }

  /// The summary and ranking of `partial`, to compare.
  private func summary(_ partial: Partial) -> [String] {
    [
      "\(partial.lines) \(partial.malformedLines) \(partial.commentLines) \(partial.filteredLines)",
      "\(partial.clientCount) \(partial.distinctSequences)",
    ] + ranked(partial)
  }

  private func write(_ text: String, _ name: String) throws -> String {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent(name)
    try Data(text.utf8).write(to: file)
    return file.path
  }

  @Test(arguments: [
    "combined", "crlf", "w3c", "json", "caddy", "common", "vcombined", "elb", "squid", "haproxy",
  ])
  func rangesThatTileAFileGiveTheWholeFile(format: String) throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let options = AnalysisOptions(length: 2)
    for seed in UInt64(1)...4 {
      let text = log(format, seed: seed, lines: 400)
      let path = try write(text, "\(format)-\(seed).log")
      let whole = try LogInput.analyze([path], options: options).partial
      // Read as its format: junk and long lines are the only malformed ones.
      #expect(whole.formatName == (format == "crlf" ? "combined" : format))
      #expect(whole.malformedLines * 10 < whole.lines, "\(whole.firstMalformedLine ?? "")")
      var generator = SplitMix(seed: seed * 31)
      let size = text.utf8.count
      // Cuts anywhere: inside lines, on newlines, inside the long ones, at the ends.
      let cuts = (0..<Int(generator.next() % 12)).map { _ in
        Int(generator.next() % UInt64(size + 1))
      }
      // A split of the first byte alone: a W3C log's leading directives and nothing else.
      let bounds = Array(Set([0, 1, size] + cuts)).sorted()
      var merged = Partial(options: options)
      for (start, end) in zip(bounds, bounds.dropFirst()) {
        merged.append(try LogInput.analyze(path, byteRange: start..<end, options: options).partial)
      }
      #expect(summary(merged) == summary(whole), "\(format), seed \(seed), cuts \(bounds)")
    }
  }

  /// A log read through a `RangeReader` (a server's Range requests, here bytes in memory)
  /// splits as a file does.
  @Test(arguments: ["combined", "w3c", "json"])
  func rangesReadThroughAReaderGiveTheWholeLog(format: String) throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let options = AnalysisOptions(length: 2)
    let text = log(format, seed: 5, lines: 300)
    let whole = try LogInput.analyze([try write(text, "\(format).log")], options: options).partial
    let bytes = Data(text.utf8)
    let reader = RangeReader(size: bytes.count) { Data(bytes[$0]) }
    let bounds = [0, 1, 777, bytes.count / 3, bytes.count / 3 + 1, bytes.count]
    var merged = Partial(options: options)
    for (start, end) in zip(bounds, bounds.dropFirst()) {
      merged.append(
        try LogInput.analyze(reader, named: format, byteRange: start..<end, options: options)
          .partial)
    }
    #expect(summary(merged) == summary(whole))
  }

  @Test func aRangeInsideOneLineHoldsNoLineAndTheRangeBeforeHoldsIt() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let first = line("a", "/1")
    let path = try write(first + "\n" + line("a", "/2") + "\n", "one.log")
    let inside = try LogInput.analyze(path, byteRange: 5..<20, options: AnalysisOptions())
    #expect(inside.partial.lines == 0)
    let before = try LogInput.analyze(path, byteRange: 0..<1, options: AnalysisOptions())
    #expect(before.partial.lines == 1)
    // A range that starts on a line's first byte holds that line.
    let second = try LogInput.analyze(
      path, byteRange: (first.utf8.count + 1)..<(first.utf8.count + 2), options: AnalysisOptions())
    #expect(second.partial.lines == 1)
  }

  @Test func aGzipFileIsOneSplit() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = log("combined", seed: 9, lines: 200)
    let plain = try write(text, "g.log")
    let gzip = Process()
    gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
    gzip.arguments = ["-k", plain]
    try gzip.run()
    gzip.waitUntilExit()
    let options = AnalysisOptions()
    let whole = try LogInput.analyze([plain], options: options).partial
    let holding = try LogInput.analyze(plain + ".gz", byteRange: 0..<10, options: options)
    let other = try LogInput.analyze(plain + ".gz", byteRange: 10..<1_000_000, options: options)
    #expect(summary(holding.partial) == summary(whole))
    #expect(other.partial.lines == 0)
  }

  /// A server that says its log is 2^50 bytes and gives bytes without a newline: the split's
  /// last line is looked for up to `LogSplit.longestLine` past its end, then refused.
  @Test func aLineWithoutEndIsRefusedPastTheLongestLine() throws {
    let read = Mutex(0)
    let line = Array("1.2.3.4 - - [01/Jul/2026:00:00:00 +0000] \"GET / HTTP/1.1\" 200 1\n".utf8)
    let log = RangeReader(size: 1 << 50) { range in
      read.withLock { $0 += range.count }
      guard range.lowerBound < line.count else {
        return Data(repeating: UInt8(ascii: "a"), count: range.count)
      }
      return Data(range.map { $0 < line.count ? line[$0] : UInt8(ascii: "a") })
    }
    #expect(throws: LogInputError.self) {
      try LogInput.analyze(
        log, named: "endless", byteRange: 0..<100, options: AnalysisOptions(),
        format: .combined)
    }
    #expect(read.withLock { $0 } < LogSplit.longestLine + (1 << 20))
  }

  @Test func aStreamIsRefused() {
    #expect(throws: LogInputError.self) {
      try LogInput.analyze("/dev/zero", byteRange: 0..<10, options: AnalysisOptions())
    }
  }
}
