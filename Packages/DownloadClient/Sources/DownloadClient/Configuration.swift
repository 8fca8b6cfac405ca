import Foundation
import HTTPClient

/// How the download manager behaves.
public struct DownloadConfiguration: Sendable {
  /// Where files without an explicit destination are written.
  public var outputDirectory: URL
  /// Retries after the first attempt, for transport errors, idle timeouts, 408, 429 and 5xx.
  public var maxRetries: Int
  public var backoff: Backoff
  /// The longest time without any data before an attempt fails (and is retried).
  public var requestTimeout: Duration
  /// The longest time a download may take in all, across its attempts.
  public var resourceTimeout: Duration
  /// Downloads running at once; the rest wait in the order they were added.
  public var maxConcurrentDownloads: Int
  public var userAgent: String
  public var acceptedStatusCodes: Range<Int>
  /// Replace an existing destination file instead of failing.
  public var overwrite: Bool
  /// Abort downloads larger than this many bytes.
  public var maxSize: Int64?
  /// The most bytes per second that all downloads together receive; nil for no limit. Each
  /// attempt gets an even share among the downloads running when it starts.
  public var maxBytesPerSecond: Int64?
  /// A download that is done and whose file is there is fetched again when started, with its
  /// `ETag` or `Last-Modified` in a conditional request: a 304 leaves the file alone, and a
  /// changed file replaces it once complete (in this run or a later one).
  public var ifChanged = false
  /// Connections per file: above 1, a file whose server takes ranges is fetched in this many
  /// segments at once, each resumable (aria2c's `--split`).
  public var segments = 1
  /// A finished file gets the time of its server's `Last-Modified` (curl's `--remote-time`)
  /// instead of the time it was written; a file whose server sends none keeps its own.
  public var remoteTime = false
  /// Ask for any content coding (gzip, deflate, br, zstd) and write the file decoded (curl's
  /// `--compressed`). Its size is then known only at the end, and an interrupted transfer
  /// goes on with a range of the file's own bytes, which is never coded.
  public var compressed = false
  /// An attempt slower than this for as long as it says fails and is retried (curl's
  /// `--speed-limit` and `--speed-time`, aria2c's `--lowest-speed-limit`).
  public var minimumSpeed: MinimumSpeed?
  /// A new download whose file name is taken (by a file, or by another download) gets the
  /// first free `name.N.ext`, N from 1 to 9999, as aria2c's `--auto-file-renaming`;
  /// without it the download is refused.
  public var autoFileRenaming = false
  /// Downloads that were active when the process that ran them ended (it was killed, or the
  /// machine stopped) go on by themselves once the manager is made, as a daemon's do; without
  /// it they wait, paused, for a resume.
  public var resumesInterrupted = false
  public var log: LogSink

  public init(
    outputDirectory: URL,
    maxRetries: Int = 3,
    backoff: Backoff = Backoff(),
    requestTimeout: Duration = .seconds(60),
    resourceTimeout: Duration = .seconds(7 * 24 * 3600),
    maxConcurrentDownloads: Int = 4,
    userAgent: String = "fetcher/1.0",
    acceptedStatusCodes: Range<Int> = 200..<300,
    overwrite: Bool = false,
    maxSize: Int64? = nil,
    log: LogSink = .silent
  ) {
    self.outputDirectory = outputDirectory
    self.maxRetries = maxRetries
    self.backoff = backoff
    self.requestTimeout = requestTimeout
    self.resourceTimeout = resourceTimeout
    self.maxConcurrentDownloads = maxConcurrentDownloads
    self.userAgent = userAgent
    self.acceptedStatusCodes = acceptedStatusCodes
    self.overwrite = overwrite
    self.maxSize = maxSize
    self.log = log
  }
}

/// Exponential backoff with jitter: attempt n waits `base × multiplierⁿ⁻¹`, capped at
/// `maximum`, then spread by ±`jitter` (a fraction). A server's `Retry-After` wins.
public struct Backoff: Sendable, Equatable {
  public var base: Duration
  public var multiplier: Double
  public var maximum: Duration
  public var jitter: Double

  public init(
    base: Duration = .seconds(1), multiplier: Double = 2, maximum: Duration = .seconds(60),
    jitter: Double = 0.2
  ) {
    self.base = base
    self.multiplier = multiplier
    self.maximum = maximum
    self.jitter = jitter
  }

  /// The wait before retry `attempt` (1 for the first retry). `unit` is a random number in
  /// 0...1 that places the delay within the jitter band; `retryAfter` is the server's wish.
  public func delay(beforeRetry attempt: Int, retryAfter: Duration? = nil, unit: Double)
    -> Duration
  {
    if let retryAfter { return min(retryAfter, maximum) }
    let exponential = base * pow(multiplier, Double(max(0, attempt - 1)))
    let capped = min(exponential, maximum)
    let spread = 1 + jitter * (2 * min(max(unit, 0), 1) - 1)
    return capped * spread
  }
}

/// How verbose the log is.
public enum LogLevel: Int, Sendable, Comparable {
  case error, info, debug

  public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Where the download manager writes its log lines.
public struct LogSink: Sendable {
  /// The most verbose level written.
  public var level: LogLevel
  public var write: @Sendable (LogLevel, String) -> Void

  public init(level: LogLevel, write: @escaping @Sendable (LogLevel, String) -> Void) {
    self.level = level
    self.write = write
  }

  /// Writes `message` when `level` is within the sink's level.
  public func callAsFunction(_ level: LogLevel, _ message: @autoclosure () -> String) {
    if level <= self.level { write(level, message()) }
  }

  /// A sink that writes nothing.
  public static let silent = LogSink(level: .error) { _, _ in }
}
