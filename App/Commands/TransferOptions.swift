import ArgumentParser
import DownloadClient
import DownloadClientLive
import Foundation
import HTTPClient
import Reachability
import ReachabilityLive

/// The options that shape how downloads run.
struct TransferOptions: ParsableArguments {
  @Option(help: "Retries after a failed attempt (transport errors, timeouts, 408, 429, 5xx).")
  var retries = 3

  @Option(help: "Downloads at once; the rest wait in order.")
  var concurrency = 4

  @Option(name: .customLong("user-agent"), help: "The User-Agent header.")
  var userAgent = "fetcher/1.0"

  @Option(help: "Seconds without any data before an attempt fails and is retried.")
  var timeout = 60

  @Option(
    name: .customLong("max-time"),
    help: ArgumentHelp(
      "The longest a download may take in all, retries included (default 7d).",
      discussion: "Seconds, or a number with s, m, h or d: 90, 1.5m, 2h.",
      valueName: "duration"))
  var maxTime: TimeSpan?

  @Option(name: .customLong("max-size"), help: "Abort downloads larger than this many bytes.")
  var maxSize: Int64?

  @Flag(help: "Overwrite existing files.")
  var force = false

  @Flag(help: "Print one JSON object per event.")
  var json = false

  @Flag(name: .shortAndLong, help: "Log retries and requests on standard error.")
  var verbose = false

  func validate() throws {
    guard retries >= 0 else { throw ValidationError("--retries must be 0 or more") }
    guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1") }
    guard timeout >= 1 else { throw ValidationError("--timeout must be at least 1 second") }
    if let maxSize, maxSize < 1 { throw ValidationError("--max-size must be at least 1") }
  }

  /// The live download client for these options over `http`, writing new files to
  /// `outputDirectory`.
  func client(outputDirectory: URL, http: HTTPClient) -> DownloadClient {
    var configuration = DownloadConfiguration(
      outputDirectory: outputDirectory,
      maxRetries: retries,
      requestTimeout: .seconds(timeout),
      maxConcurrentDownloads: concurrency,
      userAgent: userAgent,
      overwrite: force,
      maxSize: maxSize)
    if let maxTime { configuration.resourceTimeout = maxTime.duration }
    if verbose {
      configuration.log = LogSink(level: .debug) { _, line in
        Terminal.writeError("fetcher: \(line)\n")
      }
    }
    return .live(configuration: configuration, http: http)
  }
}

extension DownloadClient {
  /// The live client over `http`, with its queue in the state directory.
  static func live(configuration: DownloadConfiguration, http: HTTPClient) -> DownloadClient {
    .live(
      configuration: configuration, stateDirectory: Directories.state, http: http,
      reachability: .live())
  }

  /// The live client with the default configuration, for commands that only read or
  /// remove the queue.
  static var queue: DownloadClient {
    .live(
      configuration: DownloadConfiguration(outputDirectory: currentFolder), http: .fromEnvironment)
  }
}

/// The current working folder.
var currentFolder: URL {
  URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
}
