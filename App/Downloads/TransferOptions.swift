import ArgumentParser
import DownloadClient
import Foundation
import HTTPClient
import StyleGuide

/// The options that shape how downloads run.
struct TransferOptions: ParsableArguments {
  @Option(
    name: [.customLong("retries"), .customLong("retry")],
    parsing: .unconditional,
    help: "Retries after a failed attempt (transport errors, timeouts, 408, 429, 5xx).")
  var retries = 3

  @Option(parsing: .unconditional, help: "Downloads at once; the rest wait in order.")
  var concurrency = 4

  @Option(
    name: .shortAndLong, parsing: .unconditional,
    help: ArgumentHelp(
      "Connections per file, 1 to 16: a server that takes ranges sends it in this many segments (default: 1).",
      valueName: "n"))
  var split: Int?

  @Option(
    name: [.customShort("x"), .customLong("max-connection-per-server")], parsing: .unconditional,
    help: ArgumentHelp(
      "aria2c's: at most this many connections to a server, 1 to 16; with --split the smaller of the two, alone the number of connections.",
      valueName: "n"))
  var maxConnectionPerServer: Int?

  @Option(name: .customLong("user-agent"), help: "The User-Agent header.")
  var userAgent = "fetcher/" + Fetcher.configuration.version

  @Option(help: "Seconds without any data before an attempt fails and is retried.")
  var timeout = 60

  @Option(
    name: .customLong("max-time"),
    help: ArgumentHelp(
      "The longest a download may take in all, retries included (default: 7d).",
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
    name: [.customLong("limit-rate"), .customLong("max-overall-download-limit")],
    help: ArgumentHelp(
      "Receive no faster than this in all, in bytes per second (500K, 2M).",
      discussion:
        "One budget for the run, as aria2c's --max-overall-download-limit: every transfer, segments included, reads against it.",
      valueName: "rate"))
  var limitRate: ByteCount?

  @Option(
    name: .customLong("max-download-limit"),
    help: ArgumentHelp(
      "aria2c's: receive each download no faster than this, in bytes per second (500K, 2M).",
      valueName: "rate"))
  var maxDownloadLimit: ByteCount?

  @Option(
    name: [.customShort("Y"), .customLong("speed-limit")],
    help: ArgumentHelp(
      "Retry an attempt slower than this, in bytes per second (10K), for --speed-time.",
      discussion: "curl's option; aria2c calls it --lowest-speed-limit.", valueName: "rate"))
  var speedLimit: ByteCount?

  @Option(
    name: [.customShort("y"), .customLong("speed-time")],
    help: ArgumentHelp(
      "Seconds below --speed-limit before an attempt is retried (default: 30).",
      valueName: "seconds"))
  var speedTime: Int?

  @Flag(
    help: "Ask for a compressed answer (gzip, deflate, br, zstd) and write the file decoded.")
  var compressed = false

  @Flag(help: "Overwrite existing files.")
  var force = false

  @Flag(
    inversion: .prefixedNo,
    help: ArgumentHelp(
      "Write a new download whose file exists to file.1.ext (file.2.ext, …), as aria2c does.",
      discussion: "Off by default: the download is refused, and nothing is written."))
  var autoFileRenaming = false

  @Option(
    name: .customLong("on-download-complete"),
    help: ArgumentHelp(
      "Run this program after each download that finishes, with aria2c's arguments: the download's ID, 1 (files) and the file's path.",
      valueName: "program"))
  var onDownloadComplete: String?

  @Option(
    name: .customLong("on-download-error"),
    help: ArgumentHelp(
      "Run this program after each download that fails, with the same arguments.",
      valueName: "program"))
  var onDownloadError: String?

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
    guard (1...16).contains(split ?? 1) else { throw ValidationError("--split must be 1 to 16") }
    guard (1...16).contains(maxConnectionPerServer ?? 1) else {
      throw ValidationError("--max-connection-per-server must be 1 to 16")
    }
    guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1") }
    guard timeout >= 1 else { throw ValidationError("--timeout must be at least 1 second") }
    if json && quiet { throw ValidationError("--json and --quiet do not go together") }
    if let speedTime, speedTime < 1 {
      throw ValidationError("--speed-time must be at least 1 second")
    }
    if force && autoFileRenaming {
      throw ValidationError("choose one of --force and --auto-file-renaming")
    }
    for (option, program) in [
      ("--on-download-complete", onDownloadComplete), ("--on-download-error", onDownloadError),
    ] {
      guard let program else { continue }
      guard DownloadHooks.executable(program) != nil else {
        throw ValidationError("\(option): no program \(program.printable) to run")
      }
    }
  }

  /// The programs to run when a download ends.
  var hooks: DownloadHooks {
    DownloadHooks(
      onComplete: onDownloadComplete.flatMap(DownloadHooks.executable),
      onError: onDownloadError.flatMap(DownloadHooks.executable))
  }

  /// `--speed-limit` and `--speed-time` as curl takes them: either sets both, the rate 1 byte
  /// per second and the time 30 s unless given.
  private var minimumSpeed: MinimumSpeed? {
    guard speedLimit != nil || speedTime != nil else { return nil }
    return MinimumSpeed(
      bytesPerSecond: Int(speedLimit?.bytes ?? 1), seconds: speedTime ?? 30)
  }

  /// The connections each file is fetched over: `--split`, at most `-x` (aria2c opens the
  /// smaller of the two to one server), or `-x` alone.
  var connections: Int {
    guard let maxConnectionPerServer else { return split ?? 1 }
    return min(split ?? maxConnectionPerServer, maxConnectionPerServer)
  }

  /// The limits given, which each download keeps for every later run of it
  /// (`DownloadRequest.limits`).
  var limits: DownloadLimits {
    DownloadLimits(
      maxSize: maxSize?.bytes,
      bytesPerSecond: [maxDownloadLimit?.bytes, limitRate?.bytes].compactMap { $0 }.min(),
      maxSeconds: maxTime.map {
        Double($0.duration.components.seconds) + Double($0.duration.components.attoseconds) / 1e18
      }, maxRetries: retries)
  }

  /// The output for these options.
  var output: DownloadOutput { DownloadOutput(json: json, quiet: quiet) }

  /// The download configuration these options make, writing new files to
  /// `outputDirectory` and its log lines to `output`; with `ifChanged`, done files are
  /// fetched again when they changed.
  func configuration(outputDirectory: URL, output: DownloadOutput, ifChanged: Bool = false)
    -> DownloadConfiguration
  {
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
    configuration.segments = connections
    configuration.remoteTime = remoteTime
    configuration.compressed = compressed
    configuration.minimumSpeed = minimumSpeed
    configuration.autoFileRenaming = autoFileRenaming
    if let maxTime { configuration.resourceTimeout = maxTime.duration }
    // Errors always; retries and requests with --verbose.
    configuration.log = LogSink(level: verbose ? .debug : .error) { _, line in
      output.note(line)
    }
    return configuration
  }
}
