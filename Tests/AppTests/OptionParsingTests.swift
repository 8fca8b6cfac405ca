import ArgumentParser
import Foundation
import HTTPClient
import Testing

@testable import fetcher

/// The command line as swift-argument-parser reads it, in process: each command's options and
/// the errors of bad values, without starting the binary (the end-to-end tests run it).
/// `count` zeros: a digest of that many hex digits.
private func zeros(_ count: Int) -> String { String(repeating: "0", count: count) }

@Suite struct OptionParsingTests {
  /// The command `arguments` parse to, validated.
  private func parse<Command: ParsableCommand>(_ arguments: [String], as: Command.Type) throws
    -> Command
  {
    try #require(try Fetcher.parseAsRoot(arguments) as? Command)
  }

  /// The message and exit code of the error `arguments` give.
  private func failure(_ arguments: [String]) -> (message: String, code: Int32) {
    do {
      _ = try Fetcher.parseAsRoot(arguments)
      return ("parsed", 0)
    } catch {
      return (Fetcher.message(for: error), Fetcher.exitCode(for: error).rawValue)
    }
  }

  @Test func sizesAndRatesReadKMAndGAsCurlDoes() {
    #expect(ByteCount(argument: "500")?.bytes == 500)
    #expect(ByteCount(argument: "500K")?.bytes == 512_000)
    #expect(ByteCount(argument: "1.5m")?.bytes == 1_572_864)
    #expect(ByteCount(argument: "2G")?.bytes == 2_147_483_648)
    for bad in ["", "K", "0", "-1M", "1T", "nan", "inf", "1e19"] {
      #expect(ByteCount(argument: bad) == nil, "\(bad)")
    }
  }

  @Test func durationsReadSecondsMinutesHoursAndDays() {
    #expect(TimeSpan(argument: "90")?.duration == .seconds(90))
    #expect(TimeSpan(argument: "1.5m")?.duration == .seconds(90))
    #expect(TimeSpan(argument: "2h")?.duration == .seconds(7200))
    #expect(TimeSpan(argument: "1d")?.duration == .seconds(86_400))
    for bad in ["", "0", "-5s", "5x", "1e10"] { #expect(TimeSpan(argument: bad) == nil, "\(bad)") }
  }

  /// The issue's case: `fetcher help fetch` printed `(default: TimeSpan(duration: 60.0
  /// seconds))`. Every default in every command's help is what a user would type.
  @Test func everyDefaultInTheHelpReadsAsTyped() throws {
    #expect(TimeSpan(argument: "60")?.defaultValueDescription == "1m")
    #expect(TimeSpan(argument: "90")?.defaultValueDescription == "90s")
    #expect(TimeSpan(argument: "1.5")?.defaultValueDescription == "1.5s")
    func commands(_ command: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
      [command] + command.configuration.subcommands.flatMap(commands)
    }
    for command in commands(Fetcher.self) {
      let help = Fetcher.helpMessage(for: command, columns: 1000)
      for line in help.split(separator: "\n") where line.contains("(default: ") {
        let value = line.split(separator: "(default: ").last ?? ""
        #expect(!value.contains("("), "\(command): \(line)")
      }
    }
  }

  @Test func downloadTakesCurlsAndAria2csSpellings() throws {
    let command = try parse(
      [
        "download", "-i", "list.txt", "-d", "out", "--limit-rate", "500K", "--max-time", "2m",
        "-s", "4", "--retries", "5", "--concurrency", "2", "-q",
      ], as: DownloadCommand.self)
    #expect(command.inputFile == "list.txt" && command.dir == "out")
    #expect(command.transfer.limitRate?.bytes == 512_000)
    #expect(command.transfer.maxTime?.duration == .seconds(120))
    #expect(command.transfer.split == 4 && command.transfer.retries == 5)
    #expect(command.transfer.concurrency == 2 && command.transfer.quiet)
    #expect(command.transfer.userAgent == "fetcher/" + Fetcher.configuration.version)  // as curl's
    #expect(!command.transfer.remoteTime)
    #expect(
      try parse(["download", "-R", "http://h/f"], as: DownloadCommand.self).transfer.remoteTime)
    // curl's --retry is the same count.
    #expect(
      try parse(["download", "--retry", "7", "http://h/f"], as: DownloadCommand.self).transfer
        .retries == 7)
  }

  @Test func downloadTakesCurlsFlagsForScripts() throws {
    let command = try parse(
      [
        "download", "--compressed", "-Y", "10K", "-y", "5", "-b", "a=1; b=2", "-c", "/tmp/jar",
        "-n", "--auto-file-renaming", "--on-download-complete", "true", "http://h/f",
      ], as: DownloadCommand.self)
    let configuration = command.transfer.configuration(
      outputDirectory: URL(fileURLWithPath: "/"), output: command.transfer.output)
    #expect(configuration.compressed && configuration.autoFileRenaming)
    #expect(configuration.minimumSpeed == MinimumSpeed(bytesPerSecond: 10240, seconds: 5))
    #expect(command.connection.cookie == "a=1; b=2" && command.connection.cookieJar == "/tmp/jar")
    #expect(command.connection.netrc)
    #expect(command.transfer.hooks.onComplete?.lastPathComponent == "true")
    #expect(command.transfer.hooks.onError == nil)
    // Either of curl's two sets both, as curl does.
    let timeOnly = try parse(["download", "-y", "9", "http://h/f"], as: DownloadCommand.self)
    #expect(
      timeOnly.transfer.configuration(
        outputDirectory: URL(fileURLWithPath: "/"), output: timeOnly.transfer.output
      ).minimumSpeed
        == MinimumSpeed(bytesPerSecond: 1, seconds: 9))
  }

  @Test(arguments: [
    (["download"], "give at least one URL, --input-file or --metalink"),
    (["download", "--split", "17", "http://h/f"], "--split must be 1 to 16"),
    (["download", "--retries", "-1", "http://h/f"], "--retries must be 0 or more"),
    (["download", "--sha256", "ab", "http://h/f"], "--sha256 takes 64 hex digits"),
    (["download", "--checksum", "sha-3=ab", "http://h/f"], "--checksum takes TYPE=HEX"),
    (["download", "--checksum", "md5=abc", "http://h/f"], "with its number of hex digits"),
    (
      ["download", "--checksum", "md5=" + zeros(32), "--sha256", zeros(64), "http://h/f"],
      "choose one of --checksum and --sha256"
    ),
    (
      ["download", "--checksum", "md5=" + zeros(32), "http://h/a", "http://h/b"],
      "--checksum goes with a single URL"
    ),
    (["download", "-o", "f", "http://h/a", "http://h/b"], "--out names one file"),
    (["download", "-y", "0", "http://h/f"], "--speed-time must be at least 1 second"),
    (
      ["download", "--mirror", "ftp://m/f", "http://h/f"],
      "--mirror takes an http or https URL, not ftp://m/f"
    ),
    (
      ["download", "--mirror", "http://m/f", "http://h/a", "http://h/b"],
      "--mirror goes with a single URL"
    ),
    (
      ["download", "--force", "--auto-file-renaming", "http://h/f"],
      "choose one of --force and --auto-file-renaming"
    ),
    (["download", "--on-download-error", "/no/such", "http://h/f"], "no program /no/such to run"),
    (["download", "-b", "/no/such/jar", "http://h/f"], "cannot read the cookie file /no/such/jar"),
    (["download", "-c", "/no/such/jar", "http://h/f"], "--cookie-jar: cannot write in /no/such"),
    (["download", "--netrc-file", "/no/such", "http://h/f"], "--netrc-file: cannot read"),
    (["analyze"], "give a log to analyse, or --merge with partial results"),
    (["analyze", "a.log", "--length", "0"], "--length must be 1 to 10"),
    (["analyze", "a.log", "--length", "11"], "--length must be 1 to 10"),
    (["analyze", "a.log", "--json", "--csv"], "choose one of --json, --csv and --html"),
    (["analyze", "a.log", "--entry", "--exit"], "choose one of --entry and --exit"),
    (["analyze", "--merge", "p1", "--session-gap", "30m"], "--merge takes the options"),
    (["analyze", "a.log", "--since", "2024-05-02", "--until", "2024-05-01"], "--since must be"),
    (["analyze", "a.log", "--exclude-ip", "10.0.0.0/33"], "the prefix length must be"),
    (["fetch", "--retries", "-1"], "--retries must be 0 or more"),
    (["fetch", "--times", "0"], "--times must be at least 1"),
    (["fetch", "--timeout", "5"], "--timeout goes with --wait"),
    (["fetch", "-u", "nopassword"], "--user takes USER:PASSWORD"),
    (["fetch", "-H", "no colon"], "--header takes 'Name: value'"),
    (["songs", "--feed", "ftp://h/f"], "--feed takes an http or https URL"),
    (["songs", "--limit", "0"], "--limit must be at least 1"),
    (["downloads", "resume"], "give an ID or --all"),
    (["downloads", "cancel", "abcd1234", "--all"], "give an ID or --all"),
    (["downloads", "resume", "--all", "--split", "0"], "--split must be 1 to 16"),
  ])
  func aBadValueIsAUsageErrorThatSaysWhy(arguments: [String], reason: String) {
    let (message, code) = failure(arguments)
    #expect(message.contains(reason), "\(arguments): \(message)")
    #expect(code == 64, "\(arguments)")
  }

  @Test func aValueOfTheWrongKindNamesTheOption() {
    let (message, code) = failure(["download", "--limit-rate", "fast", "http://h/f"])
    #expect(message.contains("'fast'") && message.contains("--limit-rate"))
    #expect(code == 64)
  }

  @Test func songsAndTheQueueCommandsTakeTheirOptions() throws {
    let songs = try parse(
      ["songs", "--feed", "https://h/feed.xml", "--limit", "5", "--art", "covers", "--json"],
      as: SongsCommand.self)
    #expect(songs.feed == "https://h/feed.xml" && songs.limit == 5)
    #expect(songs.art == "covers" && songs.json)
    let resume = try parse(
      ["downloads", "resume", "--all", "--limit-rate", "1M"], as: DownloadsCommand.Resume.self)
    #expect(resume.selection.all && resume.transfer.limitRate?.bytes == 1_048_576)
    let list = try parse(["downloads", "list", "--json"], as: DownloadsCommand.List.self)
    #expect(list.json)
  }

  @Test func analyzeReadsItsFiltersIntoTheOptions() throws {
    let command = try parse(
      [
        "analyze", "a.log", "--status", "2xx,304", "--method", "GET", "--session-gap", "30m",
        "--client", "ip+ua", "--exclude-bots",
      ], as: AnalyzeCommand.self)
    let options = try command.reading.options(.init())
    #expect(options.sessionGap == 1800)
    #expect(options.filters.statuses.map(Set.init) == Set(200..<300).union([304]))
    #expect(options.filters.methods == ["GET"] && options.filters.excludeBots)
    #expect(options.client == .addressAndUserAgent)
  }
}
