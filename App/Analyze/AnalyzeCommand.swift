import AnalysisReport
import ArgumentParser
import DownloadClient
import Foundation
import HTTPClient
import LogAnalysisFeature
import LogAnalysisLive
import RemoteLogs
import StoreLive
import StyleGuide

/// `fetcher analyze INPUT`: the most common sequences of page visits in an access log.
struct AnalyzeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "analyze",
    abstract: "Find the most common sequences of consecutive page visits per client.",
    discussion: """
      Each INPUT is a file (gzip-compressed or not), - for standard input, or an http(s) \
      URL, downloaded with the download manager into the cache folder first. Several \
      inputs are read in the order given, as one log (access.log.2.gz access.log.1 \
      access.log).

      For sharded logs, analyse each shard with --partial-out, then combine the partial \
      results in log order with --merge: the answer is the same as one pass over the whole \
      log.
      """)

  @Argument(help: "The access logs: files, - for standard input, or http(s) URLs.")
  var inputs: [String] = []

  @Option(
    name: .customLong("partial-out"),
    help:
      "Write the partial result (of these inputs, or of the merge) to FILE (- for standard output) instead of the ranking."
  )
  var partialOut: String?

  @Flag(
    help: ArgumentHelp(
      "Keep reading the log as it grows, as tail -F: the table is redrawn in place, --json prints an object and --html rewrites its file at each refresh; Ctrl-C prints the result and ends.",
      discussion:
        "A rotation (to .1 or .1.gz) is followed; with --state, a watch goes on after a restart."))
  var follow = false

  @Option(
    name: .customLong("refresh-every"),
    help: ArgumentHelp("Seconds between two refreshes of --follow.", valueName: "seconds"))
  var refreshEvery = 2

  @Option(
    help: ArgumentHelp(
      "Remember in FILE what was read: the next run reads only the log's new lines (also after a rotation to .1 or .1.gz) and shows the result of all of them.",
      discussion: "For cron: one log file, the same options every run.", valueName: "file"))
  var state: String?

  @Option(
    name: .customLong("byte-range"),
    help: ArgumentHelp(
      "Read only the lines of the file (or of an http(s) URL, by Range requests; of a WebHDFS URL, by its offset and length) that begin in bytes START to END (END not included): a split of a log, as Hadoop cuts one.",
      discussion:
        "Ranges that tile a file, each analysed with --partial-out and merged in order, give the analysis of the whole file. A gzip file is one split: the range that holds its first byte reads it all.",
      valueName: "start-end"))
  var byteRange: ByteRange?

  @Option(
    name: [.customShort("j"), .long],
    help: ArgumentHelp(
      "Threads that read the inputs and write --partial-out (default: one a core), as GoAccess's --jobs; 1 for a task of a Spark executor with one core.",
      valueName: "n"))
  var jobs: Int?

  @Option(
    name: .customLong("merge"), parsing: .upToNextOption,
    help: "Merge partial results, in the order given, instead of reading a log.")
  var merge: [String] = []

  @Option(parsing: .unconditional, help: "Pages per sequence, 1 to 10 (1 ranks the pages).")
  var length = 3

  @Option(parsing: .unconditional, help: "How many sequences to show; 0 for all.")
  var top = 10

  @Flag(name: .customLong("unique-clients"), help: "Count distinct clients, not occurrences.")
  var uniqueClients = false

  @Flag(name: .customLong("strip-query"), help: "Drop ?… from pages.")
  var stripQuery = false

  @Flag(name: .customLong("exclude-static"), help: "Leave out images, CSS, JS and fonts.")
  var excludeStatic = false

  @Flag(
    help: ArgumentHelp(
      "Rank the first page of each path instead of sequences.",
      discussion: "A path is a client's visits; with --session-gap, those between gaps."))
  var entry = false

  @Flag(help: "Rank the last page of each path instead of sequences.")
  var exit = false

  @OptionGroup(title: "Log format, sessions and filters") var reading: LogReadingOptions

  @Option(
    help: ArgumentHelp(
      "Write a one-file HTML report, with a flow diagram of the top sequences, to FILE (- for standard output) instead of the ranking.",
      valueName: "file"))
  var html: String?

  @Flag(help: "Print JSON.")
  var json = false

  @Flag(help: "Print CSV.")
  var csv = false

  @Flag(help: "Download a URL's log again even if the server says it has not changed.")
  var refresh = false

  @OptionGroup var connection: ConnectionOptions

  @OptionGroup var headerOptions: RequestHeaderOptions

  /// The request headers, `--cookie`'s NAME=VALUE among them.
  private var requestHeaders: RequestHeaderOptions {
    headerOptions.adding(cookies: connection.cookieData)
  }

  func validate() throws {
    guard (1...10).contains(length) else { throw ValidationError("--length must be 1 to 10") }
    guard top >= 0 else { throw ValidationError("--top must be 0 or more") }
    guard [json, csv, html != nil].filter({ $0 }).count <= 1 else {
      throw ValidationError("choose one of --json, --csv and --html")
    }
    guard html == nil || partialOut == nil else {
      throw ValidationError("choose one of --html and --partial-out")
    }
    guard !(entry && exit) else { throw ValidationError("choose one of --entry and --exit") }
    guard inputs.isEmpty != merge.isEmpty else {
      throw ValidationError("give a log to analyse, or --merge with partial results")
    }
    if let jobs {
      guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
      guard merge.isEmpty, state == nil, !follow else {
        throw ValidationError(
          "--jobs sets the threads that read the inputs: not with --merge, --state or --follow")
      }
    }
    if byteRange != nil {
      guard merge.isEmpty, state == nil, !follow, inputs.count == 1, let input = inputs.first,
        input != "-"
      else {
        throw ValidationError("--byte-range reads a split of one log: give its path or URL, once")
      }
    }
    if state != nil || follow {
      let option = follow ? "--follow" : "--state"
      guard merge.isEmpty, inputs.count == 1, let input = inputs.first, input != "-",
        !(URL(string: input)?.isHTTP ?? false)
      else { throw ValidationError("\(option) follows one log file: give its path, once") }
    }
    if follow {
      guard refreshEvery >= 1 else {
        throw ValidationError("--refresh-every must be at least 1 second")
      }
      guard !csv, partialOut == nil else {
        throw ValidationError(
          "--follow shows a table, --json or --html, not --csv or --partial-out")
      }
    }
    if !merge.isEmpty,
      try reading.logFormat != nil || reading.options(AnalysisOptions()) != AnalysisOptions()
    {
      throw ValidationError(
        "--merge takes the options its partial results were made with; give sessions, clients "
          + "and filters when reading the logs")
    }
  }

  func run() async throws {
    let options = try reading.options(
      AnalysisOptions(
        length: length, uniqueClients: uniqueClients, stripQuery: stripQuery,
        excludeStatic: excludeStatic))
    var paths: [String] = []
    for input in inputs {
      // A split of a log on a server reads its own bytes by Range requests (below).
      if let url = URL(string: input), url.isHTTP, byteRange == nil {
        paths.append(try await download(url).path)
      } else {
        paths.append(input)
      }
    }
    if follow {
      let log = Self.followedPath(paths[0])
      return try await failingWithReason { try await self.watch(log, options: options) }
    }
    let started = ContinuousClock.now
    // The result, the whole partial result when there is one, the bytes read, and the bytes
    // of log text (inflated from gzip) that the rate counts.
    let (result, whole, bytes, logBytes) = try await failingWithReason {
      () -> (any RankedAnalysis, Partial?, Int, Int) in
      if !merge.isEmpty {
        // Partial results written with their index are joined where they lie, unless a
        // partial result of them all is to be written.
        if partialOut == nil, let (joined, bytes) = try PartialFiles.join(merge) {
          return (joined, nil, bytes, bytes)
        }
        let (partial, bytes) = try PartialFiles.merge(merge)
        return (partial, partial, bytes, bytes)
      }
      if let state {
        let (outcome, bytes) = try analyzeSince(
          state, Self.followedPath(paths[0]), options: options, whole: partialOut != nil)
        guard case .whole(let partial) = outcome else { return (outcome.result, nil, bytes, bytes) }
        return (partial, partial, bytes, bytes)
      }
      if let byteRange {
        let (partial, bytes, logBytes) = try await analyze(
          paths[0], byteRange.range, options: options, readingTimes: html != nil)
        return (partial, partial, bytes, logBytes)
      }
      let (partial, bytes, logBytes) = try analyze(
        paths, options: options, readingTimes: html != nil)
      return (partial, partial, bytes, logBytes)
    }
    // A run that writes a partial result or a report prints only the summary: no ranking.
    let screen =
      partialOut != nil || html != nil
      ? AnalysisScreen(summaryOf: result)
      : AnalysisScreen(result, top: top, ranking: entry ? .entry : exit ? .exit : nil)
    let elapsed = ContinuousClock.now - started
    // With --partial-out, every way of reading gives a whole partial result.
    if let partialOut, var partial = whole {
      // A merge is no single named input: only its own run ID guards it against a second use.
      // A split is its file's bytes START-END, so that splits of one size are no repeats, and
      // splits that overlap or come out of order are refused.
      partial.source =
        !merge.isEmpty
        ? PartialSource(input: "-", bytes: bytes)
        : byteRange.map { PartialSource.split(of: inputs[0], range: $0.range, bytes: bytes) }
          ?? PartialSource(input: inputs.joined(separator: " "), bytes: bytes)
      // With its index, so that the merge of partial results joins them where they lie.
      try await failingWithReason {
        try write(to: partialOut) { partial.serialize(indexed: true, threads: threads, into: $0) }
      }
      writeSummary(screen, result: result, bytes: logBytes, elapsed: elapsed)
      return
    }
    // Checked on the whole result only: one shard of a log may hold nothing but garbage.
    if result.noLineReads {
      // The format given, or the one its first lines looked like.
      let format = reading.logFormat ?? "a \(result.formatName ?? "combined") log"
      _ = failure(
        "no line of the input reads as \(format); the first is: \(result.firstMalformedLine ?? "")"
      )
      throw failure(
        "choose the format with --log-format (\(LogFormat.names.joined(separator: ", ")), or an "
          + "Apache LogFormat string)")
    }
    if let html {
      try await failingWithReason {
        let report = ReportData(result, top: top, inputs: merge.isEmpty ? inputs : merge)
        try write(Data(HTMLReport.render(report).utf8), to: html)
      }
      writeSummary(screen, result: result, bytes: logBytes, elapsed: elapsed)
      return
    }
    let ascii = !Styles.forStream(STDOUT_FILENO).isEnabled
    let width =
      Terminal.isTerminal(STDOUT_FILENO) ? Terminal.size(of: STDOUT_FILENO).columns : nil
    let text =
      json ? screen.json() : csv ? screen.csv() : screen.tables(ascii: ascii, width: width)
    try Terminal.write(text)
    writeSummary(screen, result: result, bytes: logBytes, elapsed: elapsed)
  }

  /// Writes `data` to the file at `path` (atomically), or to standard output for `-`.
  func write(_ data: Data, to path: String) throws {
    try write(to: path) { piece in data.withUnsafeBytes(piece) }
  }

  /// Writes the bytes that `contents` hands, in order, to the function it is given, as
  /// `write(_:to:)` writes data.
  func write(
    to path: String, contents: ((UnsafeRawBufferPointer) -> Void) -> Void
  ) throws {
    if Self.isRegularFileOrNone(path) && path != "-" {
      do {
        // Readable as any file the user makes (a report a web server serves).
        try AtomicFile.replace(URL(fileURLWithPath: path), permissions: 0o666, contents: contents)
      } catch let StoreFileError.unwritable(_, reason) {
        throw AnalyzeError("cannot write \(path): \(reason)")
      }
      return
    }
    // Standard output, or a device or a pipe (/dev/null, a FIFO): written to, never replaced
    // by a file.
    let name = path == "-" ? "standard output" : path
    let descriptor = path == "-" ? STDOUT_FILENO : open(path, O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw AnalyzeError("cannot write \(name): \(String(cString: strerror(errno)))")
    }
    defer { if path != "-" { close(descriptor) } }
    guard FileWrite.all(handedBy: contents, to: descriptor) else {
      throw AnalyzeError("cannot write \(name): \(String(cString: strerror(errno)))")
    }
  }

  /// Whether `path` names a regular file, or nothing yet: what an atomic write may replace.
  private static func isRegularFileOrNone(_ path: String) -> Bool {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
      return true
    }
    return attributes[.type] as? FileAttributeType == .typeRegular
  }

  /// The summary on standard error, and the first malformed line when there is one.
  /// The summary on standard error; without `bytes`, without the rate (a watch's time is
  /// mostly waiting).
  func writeSummary(
    _ screen: AnalysisScreen, result: some RankedAnalysis, bytes: Int?, elapsed: Duration
  ) {
    var summary =
      bytes.map { screen.summary(bytes: $0, elapsed: elapsed) }
      ?? screen.summary(elapsed: elapsed)
    var first = result.firstMalformedLine.map { "first malformed line: \($0.printable)" }
    // On a terminal, the counts break between counts and the sample line is cut to the width.
    if Terminal.isTerminal(Terminal.standardError) {
      let width = Terminal.size(of: Terminal.standardError).columns
      summary = summary.components(separatedBy: ", ").wrapped(joinedBy: ", ", width: width)
        .joined(separator: "\n")
      first = first?.cut(to: width)
    }
    Terminal.writeError(summary + "\n" + (first.map { $0 + "\n" } ?? ""))
  }

  /// Downloads `url` into the cache folder, with progress on standard error, and returns the
  /// file. A log downloaded before from the same URL is reused while the server says it has
  /// not changed (a conditional request), and fetched again with `--refresh`.
  private func download(_ url: URL) async throws -> URL {
    let cache = LogCache(folder: Directories.logCache)
    let client = AppEnvironment.live(http: connection.httpClient())
      .ownDownloads("log-downloads", cache.configuration(refresh: refresh))
    cache.dropUnknownCopy(of: url, knownTo: try await failingWithReason { try await client.list() })
    let output = DownloadOutput(json: false, descriptor: Terminal.standardError)
    var file: URL?
    let status = await DownloadRunner(client: client, output: output).run { client in
      do {
        let download = try await client.start(
          DownloadRequest(
            url: url, destination: cache.file(for: url), headers: requestHeaders.headers))
        file = download.destination
        return [download]
      } catch {
        output.failure("\(url.redactingPassword.absoluteString): \(error)")
        return []
      }
    }
    guard status == 0, let file else { throw ExitCode.failure }
    return file
  }

  /// The analysis of every line of the log at `path`, reading only what is new since the
  /// state in the file at `statePath` (when there is one), and the bytes read; the state is
  /// then saved again. A state that cannot be read, or was written with other options or for
  /// another log, is refused and kept as it is. With `whole`, the result is a whole partial.
  private func analyzeSince(
    _ statePath: String, _ path: String, options: AnalysisOptions, whole: Bool
  ) throws -> (AnalysisOutcome, Int) {
    let file = StateFile(path: statePath)
    let lock = try locked(file)
    defer { withExtendedLifetime(lock) {} }
    let saved = try loadState(file, of: path, options: options)
    let reading = try LogState.readNew(
      path, since: saved?.position, options: options, format: try self.reading.format())
    for note in reading.notes { Terminal.writeError("fetcher: warning: \(note.printable)\n") }
    do {
      return (try file.save(reading, after: saved, whole: whole), reading.bytes)
    } catch {
      throw AnalyzeError("the state \(statePath) cannot be saved: \(error); it is kept as it was")
    }
  }

  /// The log as `--state` and `--follow` name it: its absolute path, so that a state written
  /// by one run is found by the next whatever its folder.
  private static func followedPath(_ input: String) -> String {
    URL(fileURLWithPath: input).standardizedFileURL.path
  }

  /// What is said of a state refused.
  private static let kept = "; it is kept as it is (another --state file starts anew)"

  /// The state `file` holds, nil when there is none yet; one that cannot be read, or was
  /// written with other options or for another log, is refused (and kept).
  func loadState(_ file: StateFile, of path: String, options: AnalysisOptions) throws
    -> StateFile.Saved?
  {
    do {
      return try file.load(of: path, options: options)
    } catch .otherLog(let followed) {
      throw AnalyzeError("the state \(file.path) follows \(followed), not \(path)\(Self.kept)")
    } catch {
      throw AnalyzeError("the state \(file.path) \(error)\(Self.kept)")
    }
  }

  /// `file` locked for this run.
  func locked(_ file: StateFile) throws -> StateFile.Lock {
    do {
      return try file.lock()
    } catch {
      throw AnalyzeError("the state \(file.path) cannot be used: \(error)")
    }
  }

  /// The analysis of the lines of `input` (a file, or an http(s) URL read by Range requests)
  /// that begin in `range`, the bytes read and the bytes of log text.
  private func analyze(
    _ input: String, _ range: Range<Int>, options: AnalysisOptions, readingTimes: Bool
  ) async throws -> (Partial, Int, Int) {
    let format = try reading.format()
    let jobs = threads
    guard let url = URL(string: input), url.isHTTP else {
      return try LogInput.analyze(
        input, byteRange: range, options: options, format: format, readingTimes: readingTimes,
        jobs: jobs)
    }
    let log = try await HTTPRangeReader.open(
      url, http: connection.httpClient(), headers: requestHeaders.fields,
      warn: { Terminal.writeError("fetcher: warning: \($0)\n") })
    let name = url.redactingPassword.absoluteString
    return try await HTTPRangeReader.onOwnThread {
      try LogInput.analyze(
        log, named: name, byteRange: range, options: options, format: format,
        readingTimes: readingTimes, jobs: jobs)
    }
  }

  /// The threads that read the inputs: `--jobs`, or one a core.
  private var threads: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }

  /// The analysis of `paths` (files, or - for standard input) in order, the bytes read and
  /// the bytes of log text (more for gzip input).
  private func analyze(_ paths: [String], options: AnalysisOptions, readingTimes: Bool) throws
    -> (Partial, Int, Int)
  {
    let bar = AnalysisProgress(totalBytes: LogInput.plainFileBytes(paths))
    defer { bar.finish() }
    return try LogInput.analyze(
      paths, options: options, format: try reading.format(), readingTimes: readingTimes,
      jobs: threads, progress: bar.advance)
  }
}

struct AnalyzeError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
