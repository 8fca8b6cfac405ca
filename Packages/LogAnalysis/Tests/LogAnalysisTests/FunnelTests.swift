import Foundation
import LogAnalysisTestSupport
import Testing

@testable import LogAnalysis

/// The funnel (`AnalysisOptions.funnel`) against an obvious implementation, in every format,
/// through chunks, partial files and merges (and `LayeredResultTests`, through `--state`'s
/// layers).
@Suite struct FunnelTests {
  /// Steps drawn from pages, globs of them, and globs that match any page.
  static func randomFunnel(_ generator: inout SplitMix) -> [String] {
    let choices = ["/", "/a", "/a*", "*/b*", "/c", "*", "*.png", "*/b?q=1", "*c", "/"]
    return (0..<(2 + Int(generator.next() % 3))).map { _ in
      choices[Int(generator.next() % UInt64(choices.count))]
    }
  }

  /// The funnel as `glob:paths:dropOff:median` per step, then the paths.
  static func described(_ report: FunnelReport?) -> [String] {
    guard let report else { return ["none"] }
    return report.steps.map {
      "\($0.glob):\($0.paths):\($0.dropOff):\($0.medianSeconds.map { "\($0)" } ?? "-")"
    } + ["paths \(report.paths)"]
  }

  @Test(arguments: 0..<12)
  func theFunnelInEveryFormatIsTheReferences(seed: Int) throws {
    var generator = SplitMix(seed: UInt64(seed) &+ 301)
    let drawnVisits = randomVisits(seed: UInt64(seed), count: 50 + Int(generator.next() % 400))
    var drawn = randomOptions(&generator)
    drawn.funnel = Self.randomFunnel(&generator)
    if seed % 4 == 0 { drawn.sessionGap = 300 }
    for written in FormatTests.formats {
      var (visits, options) = (drawnVisits, drawn)
      written.adapt(&visits, &options)
      let expected = Self.described(FunnelReference.report(visits, options))
      let text = written.write(visits)
      for chunks in [1, 3, 8] {
        let partial = analyze(text, options: options, format: written.format, chunks: chunks)
        #expect(
          Self.described(partial.funnel()) == expected,
          "\(written.name), \(chunks) chunks, \(options)")
        #expect(partial.funnel()?.paths == partial.pathCount, "\(written.name)")
      }
      // Parts analysed apart and merged, at two random cuts.
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      let header = written.name == "w3c" ? 4 : 0
      let body = Array(lines[header...])
      let first = Int(generator.next() % UInt64(body.count))
      let second = first + Int(generator.next() % UInt64(body.count - first + 1))
      var merged = Partial(options: options)
      for range in [0..<first, first..<second, second..<body.count] {
        let part = (lines[..<header] + body[range]).joined(separator: "\n")
        let analysed = analyze(part, options: options, format: written.format, chunks: 2)
        merged.append(try Partial(serialized: analysed.serialized()))
      }
      #expect(
        Self.described(merged.funnel()) == expected, "\(written.name) merged at \(first), \(second)"
      )
    }
  }

  @Test func globsMatchAnyRunWithAStar() {
    for (page, glob, matches) in [
      ("/products/12", "/products/*", true), ("/products", "/products/*", false),
      ("/products/", "/products/*", true), ("/a/b/c", "/a*c", true), ("/a/b/cd", "/a*c", false),
      ("/cart?x=1", "/cart", false), ("/cart?x=1", "/cart*", true), ("", "*", true),
      ("/x", "", false), ("/checkout/done", "*/done", true), ("/a*b", "/a*b", true),
      ("/aXbYb", "/a*b", true), ("/ab", "/a**b", true),
    ] {
      let got = Array(page.utf8).withUnsafeBytes {
        FunnelSteps.matches($0, Array(glob.utf8))
      }
      #expect(got == matches, "\(page) \(glob)")
    }
  }

  /// A path reaches a step after the one before; pages between do not matter; the first
  /// visit of a step's page counts, and its time.
  @Test func aPathReachesEachStepInOrder() {
    var options = AnalysisOptions(length: 2, sessionGap: 1800)
    options.funnel = ["/", "/products/*", "/cart", "/checkout"]
    let visits: [(String, String, Int)] = [
      ("a", "/", 0), ("a", "/about", 10), ("a", "/products/1", 70), ("a", "/products/2", 80),
      ("a", "/cart", 130), ("a", "/checkout", 190),
      ("b", "/products/1", 0), ("b", "/", 30), ("b", "/cart", 40),
      ("c", "/", 0), ("c", "/products/9", 100), ("c", "/", 5000), ("c", "/cart", 5001),
    ]
    let text = visits.map { client, page, seconds in
      let time = LogWriter.apacheTime(1_704_103_200 + Int64(seconds))
      return #"\#(client) - - [\#(time)] "GET \#(page) HTTP/1.1" 200 1 "-" "ua""#
    }.joined(separator: "\n")
    let report = analyze(text, options: options).funnel()
    #expect(
      Self.described(report) == [
        "/:4:0:-", "/products/*:2:2:85.0", "/cart:1:1:60.0", "/checkout:1:0:60.0", "paths 4",
      ])
  }

  @Test func funnelsOfTooFewOrEmptyStepsAreRefused() throws {
    #expect(throws: AnalysisOptionError.self) { try FunnelSteps.check(["/"]) }
    #expect(throws: AnalysisOptionError.self) { try FunnelSteps.check(["/", ""]) }
    #expect(throws: AnalysisOptionError.self) {
      try FunnelSteps.check(Array(repeating: "/", count: 17))
    }
    try FunnelSteps.check([])
    try FunnelSteps.check(["/", "/b"])
  }

  @Test func theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
    #expect(FunnelCounts.median([:]) == nil)
    #expect(FunnelCounts.median([5: 1]) == 5)
    #expect(FunnelCounts.median([1: 1, 4: 1]) == 2.5)
    #expect(FunnelCounts.median([1: 2, 4: 1]) == 1)
    #expect(FunnelCounts.median([1: 2, 4: 2, 9: 1]) == 4)
    #expect(FunnelCounts.median([-3: 1, 1: 1, 2: 1, 10: 1]) == 1.5)
  }
}

/// The obvious implementation of a funnel: each path's visits in order, matched greedily.
enum FunnelReference {
  static func report(_ visits: [Visit], _ options: AnalysisOptions) -> FunnelReport {
    var paths: [[(page: String, time: Int64)]] = []
    var current: [String: Int] = [:]  // client → index in paths
    var last: [String: Int64] = [:]
    for visit in visits where Reference.keeps(visit, options) {
      let client =
        options.client == .address ? visit.address : "\(visit.address) \(visit.agent)"
      let page = options.stripQuery ? visit.page : visit.target
      if let gap = options.sessionGap, let previous = last[client], visit.time - previous > gap {
        current[client] = nil
      }
      if current[client] == nil {
        current[client] = paths.count
        paths.append([])
      }
      paths[current[client]!].append((page, visit.time))
      last[client] = visit.time
    }
    let steps = options.funnel
    var reached = [Int](repeating: 0, count: steps.count + 1)
    var seconds = [[Int64]](repeating: [], count: steps.count)
    for path in paths {
      var (step, time): (Int, Int64) = (0, 0)
      for visit in path where step < steps.count && glob(steps[step], matches: visit.page) {
        if step > 0 { seconds[step].append(visit.time - time) }
        (step, time) = (step + 1, visit.time)
      }
      for index in 0...step { reached[index] += 1 }
    }
    return FunnelReport(
      steps: steps.indices.map { index in
        let values = seconds[index].sorted()
        let median =
          values.isEmpty
          ? nil : Double(values[(values.count - 1) / 2] + values[values.count / 2]) / 2
        return FunnelReport.Step(
          glob: steps[index], paths: reached[index + 1],
          dropOff: index == 0 ? 0 : reached[index] - reached[index + 1], medianSeconds: median)
      }, paths: paths.count)
  }

  /// `*` any run of characters, by recursion on the characters.
  static func glob(_ glob: String, matches text: String) -> Bool {
    guard let first = glob.first else { return text.isEmpty }
    if first == "*" {
      return self.glob(String(glob.dropFirst()), matches: text)
        || (!text.isEmpty && self.glob(glob, matches: String(text.dropFirst())))
    }
    return text.first == first
      && self.glob(String(glob.dropFirst()), matches: String(text.dropFirst()))
  }
}

extension FunnelTests {
  /// A partial file whose funnel says more than its lines, or names a step or row it cannot
  /// have, is refused.
  @Test func funnelCountsOutOfRangeAreRefused() throws {
    var options = AnalysisOptions(length: 2, sessionGap: 60)
    options.funnel = ["/1", "/2", "/3"]
    let good = analyze(log([("a", "/1"), ("a", "/2"), ("b", "/1")]), options: options)
    _ = try Partial(serialized: good.serialized())
    let damages: [(String, (inout FunnelCounts) -> Void)] = [
      ("paths", { $0.ended[1] = 99 }),
      ("clients", { $0.tailSteps[0] = 4 }),
      ("clients", { $0.heads[0] = 4 }),
      ("times", { $0.durations[0] = [5: 9] }),
      ("clients", { $0.first[0] = Int64.max }),
    ]
    for (what, damage) in damages {
      var partial = good
      damage(&partial.funnelCounts)
      #expect {
        try Partial(serialized: partial.serialized())
      } throws: { error in
        "\(error)" == "the funnel's \(what) are out of range"
      }
    }
  }
}

extension FunnelTests {
  /// A count of times between steps so large that twice it overflows is refused, not a trap
  /// (found by fuzzing).
  @Test func aHugeCountOfTimesIsRefused() throws {
    var options = AnalysisOptions(length: 2)
    options.funnel = ["/1", "/2", "/3"]
    let partial = analyze(log([("a", "/1"), ("a", "/2")]), options: options)
    var data = partial.serialized()
    // The paths ended per step (none: the one path is the client's first, kept whole), the
    // counts of times per step after the first (none yet), and the times, as words.
    let words = [4, 0, 0, 0, 0, 2, 0, 0, 0].flatMap {
      withUnsafeBytes(of: $0.littleEndian, Array.init)
    }
    let found = try #require(data.firstRange(of: words))
    let first = found.lowerBound + 6 * 8
    data.replaceSubrange(
      first..<first + 8, with: withUnsafeBytes(of: (Int.max / 2 + 1).littleEndian, Array.init))
    #expect {
      try Partial(serialized: data)
    } throws: { error in
      "\(error)" == "the funnel's times are out of range"
    }
  }
}
