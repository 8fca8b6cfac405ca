import ArgumentParser
import DownloadClient
import Foundation
import StyleGuide

/// The options that shape how downloads run.
struct TransferOptions: ParsableArguments {
  @Option(
    parsing: .unconditional,
    help: "Retries after a failed attempt (transport errors, timeouts, 408, 429, 5xx).")
  var retries = 3

  @Option(parsing: .unconditional, help: "Downloads at once; the rest wait in order.")
  var concurrency = 4

  @Option(
    name: .shortAndLong, parsing: .unconditional,
    help: ArgumentHelp(
      "Connections per file, 1 to 16: a server that takes ranges sends it in this many segments.",
      valueName: "n"))
  var split = 1

  @Option(name: .customLong("user-agent"), help: "The User-Agent header.")
  var userAgent = "fetcher/" + Fetcher.configuration.version

  @Option(help: "Seconds without any data before an attempt fails and is retried.")
  var timeout = 60

  @Option(
    name: .customLong("max-time"),
    help: ArgumentHelp(
      "The longest a download may take in all, retries included (default 7d).",
      discussion: "Seconds, or a number with s, m, h or d: 90, 1.5m, 2h.",
      valueName: "duration"))
  var maxTime: TimeSpan?

  @Option(
    name: .customLong("max-size"),
    help: ArgumentHelp(
      "Abort downloads larger than this: bytes, or a number with K, M or G (10M).",
      valueName: "size"))
  var maxSize: ByteCount?

  @Option(
    name: .customLong("limit-rate"),
    help: ArgumentHelp(
      "Receive no faster than this in all, in bytes per second (500K, 2M).",
      discussion: "Downloads running at once share it evenly.",
      valueName: "rate"))
  var limitRate: ByteCount?

  @Flag(help: "Overwrite existing files.")
  var force = false

  @Flag(
    name: [.customShort("R"), .customLong("remote-time")],
    help: "Give the file the time of the server's Last-Modified, as curl -R does.")
  var remoteTime = false

  @Flag(help: "Print one JSON object per event.")
  var json = false

  @Flag(name: .shortAndLong, help: "Print nothing but errors.")
  var quiet = false

  @Flag(name: .shortAndLong, help: "Log retries and requests on standard error.")
  var verbose = false

  func validate() throws {
    guard retries >= 0 else { throw ValidationError("--retries must be 0 or more") }
    guard (1...16).contains(split) else { throw ValidationError("--split must be 1 to 16") }
    guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1") }
    guard timeout >= 1 else { throw ValidationError("--timeout must be at least 1 second") }
    if json && quiet { throw ValidationError("--json and --quiet do not go together") }
  }

  /// The output for these options.
  var output: DownloadOutput { DownloadOutput(json: json, quiet: quiet) }

  /// The download configuration these options make, writing new files to
  /// `outputDirectory`; with `ifChanged`, done files are fetched again when they changed.
  func configuration(outputDirectory: URL, ifChanged: Bool = false) -> DownloadConfiguration {
    var configuration = DownloadConfiguration(
      outputDirectory: outputDirectory,
      maxRetries: retries,
      requestTimeout: .seconds(timeout),
      maxConcurrentDownloads: concurrency,
      userAgent: userAgent,
      overwrite: force,
      maxSize: maxSize?.bytes)
    configuration.maxBytesPerSecond = limitRate?.bytes
    configuration.ifChanged = ifChanged
    configuration.segments = split
    configuration.remoteTime = remoteTime
    if let maxTime { configuration.resourceTimeout = maxTime.duration }
    // Errors always; retries and requests with --verbose.
    configuration.log = LogSink(level: verbose ? .debug : .error) { _, line in
      Terminal.writeError("fetcher: \(line.printable)\n")
    }
    return configuration
  }
}
