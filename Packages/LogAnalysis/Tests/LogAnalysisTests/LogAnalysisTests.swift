import Foundation
import LogAnalysisTestSupport
import Testing

@testable import LogAnalysis

@Suite struct SeedExampleTests {
  @Test func theMostCommonSequenceOfTheSeed() {
    let visits = [
      ("ip1", "/1"), ("ip1", "/2"), ("ip2", "/1"), ("ip1", "/3"), ("ip2", "/2"), ("ip1", "/4"),
      ("ip2", "/3"), ("ip1", "/1"), ("ip2", "/2"), ("ip1", "/2"),
    ]
    #expect(ranked(analyze(log(visits)), top: 1) == ["/1-/2-/3:2"])
  }

  @Test func userOneGivesExactlyItsFiveWindows() {
    let visits = ["/1", "/2", "/3", "/4", "/1", "/2", "/9"].map { ("u1", $0) }
    #expect(
      Set(ranked(analyze(log(visits))))
        == ["/1-/2-/3:1", "/2-/3-/4:1", "/3-/4-/1:1", "/4-/1-/2:1", "/1-/2-/9:1"])
  }

  @Test func userTwoGivesSixWindows() {
    let visits = ["/1", "/2", "/3", "/4", "/5", "/2", "/9", "/10"].map { ("u2", $0) }
    #expect(ranked(analyze(log(visits))).count == 6)
  }
}

@Suite struct LineTests {
  @Test func malformedLinesAreCountedAndSkipped() {
    let text = [
      line("a", "/1"), "", "no quotes at all", #"b - - "GET" 200"#, #"c - - "unterminated"#,
      line("a", "/2"), "\u{0}\u{1}binary", line("a", "/3"),
    ].joined(separator: "\n")
    let partial = analyze(text)
    // The blank line is no line.
    #expect(partial.lines == 7)
    #expect(partial.malformedLines == 4)
    #expect(ranked(partial) == ["/1-/2-/3:1"])
  }

  @Test func requestsOfOddShapes() {
    let requests = [
      #""  GET   /1   HTTP/1.0  ""#, #""GET /2""#, #""GET /3"#, #""""#, #""GET ""#, #""GET""#,
      #""x y""#, #""GET /3?q=1 HTTP/1.0""#,
    ]
    let clients = ["a", "a", "a", "a", "a", "a", "b", "a"]
    let text = zip(clients, requests).map { client, request in
      #"\#(client) - - [10/Oct/2000:13:55:36 -0700] \#(request) 200 1"#
    }.joined(separator: "\r\n")
    let partial = analyze(text)
    #expect(partial.lines == 8)
    // `"GET /3` has no closing quote; the empty, one-token and `x y` requests name no page.
    #expect(partial.malformedLines == 1)
    #expect(partial.unreadableRequests == 4)
    #expect(ranked(partial) == ["/1-/2-/3?q=1:1"])
    #expect(partial.clientCount == 1)
  }

  /// A client, a time, a status and a size are what make a line a visit, not a quote alone.
  @Test func aLineWithoutItsFieldsIsMalformed() {
    let partial = analyze([#"c"GET /1""#, #"c"GET /2""#, #"c"GET /3""#].joined(separator: "\n"))
    #expect(ranked(partial).isEmpty)
    #expect(partial.malformedLines == 3)
  }

  @Test func crlfAndAMissingFinalNewline() {
    let text = [line("a", "/1"), line("a", "/2"), line("a", "/3")].joined(separator: "\r\n")
    let partial = analyze(text)
    #expect(partial.lines == 3)
    #expect(ranked(partial) == ["/1-/2-/3:1"])
  }

  @Test func hostNamesAndIPv6Clients() {
    let visits = [
      ("piweba3y.prodigy.com", "/a"), ("2001:db8::1", "/x"), ("piweba3y.prodigy.com", "/b"),
      ("2001:db8::1", "/y"), ("piweba3y.prodigy.com", "/c"), ("2001:db8::1", "/z"),
    ]
    let partial = analyze(log(visits))
    #expect(partial.clientCount == 2)
    #expect(ranked(partial) == ["/a-/b-/c:1", "/x-/y-/z:1"])
  }

  @Test func invalidUTF8PagesAreKeptAsBytes() throws {
    var bytes = Array(line("a", "/p").utf8) + [10]
    bytes += Array(#"a - - [10/Oct/2000:13:55:36 -0700] "GET /\#u{FF}q HTTP/1.0" 200 1"#.utf8).map {
      $0 == 0xC3 ? 0xFF : $0
    }
    bytes += [10] + Array(line("a", "/r").utf8)
    let partial = try bytes.withUnsafeBytes {
      try LogAnalyzer.analyze($0, options: AnalysisOptions())
    }
    #expect(partial.malformedLines == 0)
    #expect(partial.ranking(top: 0).first?.pages.count == 3)
  }

  @Test func tiesAreOrderedByThePagesAsBytes() {
    let visits = [("a", "/b"), ("a", "/c"), ("b", "/a"), ("b", "/c"), ("c", "/B"), ("c", "/c")]
    let partial = analyze(log(visits), options: AnalysisOptions(length: 2))
    #expect(ranked(partial) == ["/B-/c:1", "/a-/c:1", "/b-/c:1"])
  }
}

@Suite struct OptionTests {
  @Test func stripQuery() {
    let visits = [("a", "/1?x=1"), ("a", "/2"), ("b", "/1?y=2"), ("b", "/2")]
    #expect(
      ranked(analyze(log(visits), options: AnalysisOptions(length: 2))) == [
        "/1?x=1-/2:1", "/1?y=2-/2:1",
      ])
    #expect(
      ranked(analyze(log(visits), options: AnalysisOptions(length: 2, stripQuery: true))) == [
        "/1-/2:2"
      ])
  }

  @Test func excludeStaticDropsAssetsBeforeWindowing() {
    let visits = [
      ("a", "/1"), ("a", "/logo.PNG"), ("a", "/app.js?v=3"), ("a", "/2"), ("a", "/font.woff2"),
    ]
    let options = AnalysisOptions(length: 2, excludeStatic: true)
    let partial = analyze(log(visits), options: options)
    #expect(ranked(partial) == ["/1-/2:1"])
    #expect(partial.malformedLines == 0)
  }

  /// Extensions compared as bytes say what the extensions lowercased as strings say: in any
  /// case, with a query, non-ASCII bytes, zeros, and extensions that are a prefix of one.
  @Test func staticFilesAreTheExtensionsInAnyCase() {
    let pieces: [[UInt8]] = [
      Array("png".utf8), Array("PnG".utf8), Array("js".utf8), Array("jsx".utf8), Array("J".utf8),
      Array("woff2".utf8), Array("WOFF".utf8), Array("map".utf8), Array("tiff1".utf8),
      [0] + Array("js".utf8),
      Array("j\u{0}s".utf8), Array("\u{212A}".utf8), Array("ÉOT".utf8), [0xff, 0x70], [],
      Array("a.css".utf8),
    ]
    var random = SystemRandomNumberGenerator()
    var pages: [[UInt8]] = []
    for piece in pieces {
      pages.append(Array("/a.".utf8) + piece)
      pages.append(Array("/a.".utf8) + piece + Array("?v=1.png".utf8))
    }
    for _ in 0..<500 {
      let letters = Array("jspngcSSwofMAP2.".utf8) + [0, 0xc3]
      let length = Int.random(in: 0...6, using: &random)
      pages.append(
        Array("/x.".utf8) + (0..<length).map { _ in letters.randomElement(using: &random)! })
    }
    for page in pages {
      // The rule as strings: the extension before any `?`, after the last `.` of the last segment.
      let path = page.split(separator: UInt8(ascii: "?"), omittingEmptySubsequences: false)[0]
      let name = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).last!
      let dot = name.lastIndex(of: UInt8(ascii: "."))
      let expected =
        dot.map {
          name.endIndex - $0 - 1 <= 5
            && StaticFiles.extensions.contains(
              String(decoding: name[($0 + 1)...], as: UTF8.self).lowercased())
        } ?? false
      let matched = page.withUnsafeBytes { StaticFiles.matches($0, 0..<page.count) }
      #expect(matched == expected, "\(page)")
    }
  }

  @Test func uniqueClientsCountsClientsNotOccurrences() {
    let visits = [("a", "/1"), ("a", "/2"), ("a", "/1"), ("a", "/2"), ("b", "/1"), ("b", "/2")]
    #expect(
      ranked(analyze(log(visits), options: AnalysisOptions(length: 2)), top: 1) == ["/1-/2:3"])
    #expect(
      ranked(analyze(log(visits), options: AnalysisOptions(length: 2, uniqueClients: true)), top: 1)
        == ["/1-/2:2"])
  }
}

@Suite struct ParallelTests {
  /// A random log: clients interleaved, pages drawn from a small skewed set.
  private func randomVisits(seed: UInt64, count: Int) -> [(String, String)] {
    var generator = SplitMix(seed: seed)
    return (0..<count).map { _ in
      let client = "10.0.0.\(generator.next() % 7)"
      let page = "/p\(min(generator.next() % 6, generator.next() % 6))"
      return (client, page)
    }
  }

  @Test(arguments: 0..<20)
  func chunkedAnalysisEqualsANaivePass(seed: Int) {
    var generator = SplitMix(seed: UInt64(seed) &+ 99)
    let visits = randomVisits(seed: UInt64(seed), count: 1 + Int(generator.next() % 400))
    let length = 1 + Int(generator.next() % 5)
    let chunks = 1 + Int(generator.next() % 40)
    let unique = generator.next() % 2 == 0
    let options = AnalysisOptions(length: length, uniqueClients: unique)
    let partial = analyze(log(visits), options: options, chunks: chunks)
    #expect(ranked(partial) == naiveRanking(visits, length: length, unique: unique))
    let pagesByClient = Dictionary(grouping: visits, by: \.0)
    let windows = pagesByClient.values.reduce(0) { $0 + max(0, $1.count - length + 1) }
    #expect(partial.total == (unique ? pagesByClient.count : windows))
  }

  @Test(arguments: [1, 2, 5])
  func sequencesCountedInSmallGroupsEqualANaivePass(threshold: Int) {
    let visits = randomVisits(seed: UInt64(threshold), count: 3000)
    let text = Array(log(visits).utf8)
    for unique in [false, true] {
      let options = AnalysisOptions(length: 3, uniqueClients: unique)
      let partial = text.withUnsafeBytes { bytes in
        Partial.reading(options: options, pendingThreshold: threshold) { read in read(bytes) }
      }
      #expect(ranked(partial) == naiveRanking(visits, length: 3, unique: unique))
    }
  }

  @Test func shardsMergedInOrderEqualOnePass() {
    let visits = randomVisits(seed: 7, count: 500)
    let text = log(visits)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    var merged = Partial(options: AnalysisOptions())
    for shard in stride(from: 0, to: lines.count, by: 37) {
      let piece = lines[shard..<min(lines.count, shard + 37)].joined(separator: "\n")
      merged.append(analyze(piece + (shard + 37 < lines.count ? "\n" : "")))
    }
    #expect(ranked(merged) == ranked(analyze(text)))
    #expect(merged.lines == analyze(text).lines)
  }

  @Test func readingInBlocksEqualsOnePass() throws {
    let text = log(randomVisits(seed: 3, count: 300))
    var remaining = Data(text.utf8)
    let streamed = try LogAnalyzer.analyze(
      reading: {
        let piece = remaining.prefix(97)
        remaining = remaining.dropFirst(97)
        return Data(piece)
      }, options: AnalysisOptions(), blockSize: 500)
    #expect(ranked(streamed) == ranked(analyze(text)))
  }
}
