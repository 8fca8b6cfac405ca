import ChecksumTypes
import Foundation
import HTTPClient

/// Identifies a download.
public struct DownloadID: Hashable, Codable, Sendable, CustomStringConvertible {
  public var rawValue: String

  public init(_ rawValue: String) {
    self.rawValue = rawValue
  }

  public var description: String { rawValue }

  /// A new random ID: 8 hex digits.
  public static func random() -> DownloadID {
    let digits = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    return DownloadID(String(repeating: "0", count: 8 - digits.count) + digits)
  }
}

/// What to download, and where to.
public struct DownloadRequest: Hashable, Codable, Sendable {
  /// The http or https URL to download; a `user:password@` in it is sent as Basic auth.
  public var url: URL
  /// The file to write, or nil for a name taken from the URL or the server, in `folder`.
  public var destination: URL?
  /// The folder of a download without a destination; nil for the configuration's output
  /// directory.
  public var folder: URL?
  /// The digest the finished file must have.
  public var expectedChecksum: FileChecksum?
  /// Extra request headers, by name. The secret ones (`HTTPHeaders.isSecret`) go only to
  /// `url`'s origin, not to a mirror elsewhere.
  public var headers: [String: String]
  /// Other URLs of the same file, tried in order when `url` fails; with segments, the
  /// segments are fetched from all of them at once. A mirror that serves a file of another
  /// size is dropped.
  public var mirrors: [URL]
  /// The digests of the file's pieces (a Metalink's): when the file's checksum fails, or
  /// without one, the damaged pieces are found and fetched again alone. Not kept in the queue
  /// (there can be thousands): a run uses them when its request gives them.
  public var pieceChecksums: PieceChecksums?
  /// The size the finished file must have (a Metalink's `<size>`), checked as a checksum is: a
  /// URL that serves another size is dropped for the next mirror, or fails the download, and
  /// a finished file of another size is refused.
  public var expectedSize: Int64?
  /// The limits the download was given (its size, rate, time and retries), kept in the queue:
  /// they hold on every run of it, a resume in another process included, over that process's
  /// configuration. Nil: the configuration's.
  public var limits: DownloadLimits?
  /// A new download is added paused: it waits for a resume (aria2's `pause` option). Not
  /// kept: once added, its status says it.
  public var startsPaused = false
  /// Added as a download of its own even when the queue has one of the same URL and
  /// destination (an aria2 `addUri` of it again), its file then named as a taken name is
  /// (`autoFileRenaming`). Not kept: it says how to add.
  public var addsAnother = false

  public init(
    url: URL, destination: URL? = nil, folder: URL? = nil,
    expectedChecksum: FileChecksum? = nil, headers: [String: String] = [:], mirrors: [URL] = [],
    pieceChecksums: PieceChecksums? = nil
  ) {
    self.pieceChecksums = pieceChecksums
    self.url = url
    self.destination = destination
    self.folder = folder
    self.expectedChecksum = expectedChecksum
    self.headers = headers
    self.mirrors = mirrors
  }

  private enum CodingKeys: String, CodingKey {
    case url, destination, folder, expectedChecksum, expectedSize, limits, headers, mirrors
    /// Where queues written before other digests than SHA-256 kept it, as hex.
    case expectedSHA256
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(url, forKey: .url)
    try container.encodeIfPresent(destination, forKey: .destination)
    try container.encodeIfPresent(folder, forKey: .folder)
    try container.encodeIfPresent(expectedChecksum, forKey: .expectedChecksum)
    try container.encodeIfPresent(expectedSize, forKey: .expectedSize)
    try container.encodeIfPresent(limits, forKey: .limits)
    try container.encode(headers, forKey: .headers)
    if !mirrors.isEmpty { try container.encode(mirrors, forKey: .mirrors) }
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    url = try container.decode(URL.self, forKey: .url)
    destination = try container.decodeIfPresent(URL.self, forKey: .destination)
    folder = try container.decodeIfPresent(URL.self, forKey: .folder)
    expectedChecksum =
      try container.decodeIfPresent(FileChecksum.self, forKey: .expectedChecksum)
      ?? container.decodeIfPresent(String.self, forKey: .expectedSHA256).flatMap {
        FileChecksum(.sha256, hex: $0)
      }
    expectedSize = try container.decodeIfPresent(Int64.self, forKey: .expectedSize)
    limits = try container.decodeIfPresent(DownloadLimits.self, forKey: .limits)
    // Queues written before headers could be given have no such key.
    headers = try container.decodeIfPresent([String: String].self, forKey: .headers) ?? [:]
    mirrors = try container.decodeIfPresent([URL].self, forKey: .mirrors) ?? []
  }

  /// Whether the request holds a secret: a password in the URL or a secret header.
  public var hasSecrets: Bool { redacted != self }

  /// The request without its secrets, to keep and to show: the URLs' passwords read `***`
  /// and the secret headers (`HTTPHeaders.isSecret`) are left out.
  public var redacted: DownloadRequest {
    var copy = self
    copy.url = url.redactingPassword
    copy.mirrors = mirrors.map(\.redactingPassword)
    copy.headers = headers.filter { !HTTPHeaders.isSecret($0.key) }
    return copy
  }
}

/// The limits of one download, each nil when the download has none of its own.
public struct DownloadLimits: Hashable, Codable, Sendable {
  /// The largest file it may be, in bytes (`--max-size`).
  public var maxSize: Int64?
  /// The most bytes a second it reads (`--limit-rate`).
  public var bytesPerSecond: Int64?
  /// The longest it may take in all, retries included, in seconds (`--max-time`).
  public var maxSeconds: Double?
  /// The most retries of an attempt that gets nowhere (`--retries`).
  public var maxRetries: Int?
  /// The most connections it is fetched over, in segments (aria2c's `--split`), for a file
  /// not begun: one under way keeps its segments.
  public var connections: Int?

  public init(
    maxSize: Int64? = nil, bytesPerSecond: Int64? = nil, maxSeconds: Double? = nil,
    maxRetries: Int? = nil
  ) {
    self.maxSize = maxSize
    self.bytesPerSecond = bytesPerSecond
    self.maxSeconds = maxSeconds
    self.maxRetries = maxRetries
  }
}

/// Where a download stands.
public enum DownloadStatus: Codable, Sendable, Equatable {
  /// Waiting for a free slot.
  case queued
  case running
  /// Waiting before retry number `attempt`.
  case retrying(attempt: Int)
  /// The host cannot be reached: waiting for it, without using up the retries.
  case waitingForNetwork
  /// Stopped by the user or the process; the partial data is kept.
  case paused
  case completed
  case failed(reason: String)

  /// Whether the download is over, done or failed: it writes nothing more unless resumed.
  public var hasEnded: Bool {
    switch self {
    case .completed, .failed: return true
    default: return false
    }
  }

  /// Whether the download will go on by itself.
  public var isActive: Bool {
    switch self {
    case .queued, .running, .retrying, .waitingForNetwork: return true
    case .paused, .completed, .failed: return false
    }
  }

  /// Whether it waits in line for its turn: queued, or paused until resumed (aria2's
  /// `tellWaiting` lists both).
  public var isWaiting: Bool {
    switch self {
    case .queued, .paused: return true
    case .running, .retrying, .waitingForNetwork, .completed, .failed: return false
    }
  }
}

/// A download and its state.
public struct Download: Codable, Sendable, Equatable, Identifiable {
  public var id: DownloadID
  public var request: DownloadRequest
  public var status: DownloadStatus
  /// The file written once the download completes (known once the name is decided).
  public var destination: URL?
  public var receivedBytes: Int64
  public var expectedBytes: Int64?
  /// Why it failed, as data (an aria2 error code follows from it, `DownloadError.aria2Code`
  /// in DownloadRPC), while its status is `failed` and the manager knows: nil for a failure
  /// that a version before this one saved, which only its `reason` tells.
  public var failure: DownloadError?
  /// How fast it transfers (smoothed, as `DownloadProgress` says it) while it is running
  /// where the manager can see it; nil otherwise.
  public var bytesPerSecond: Double?
  /// Paused because the process that ran it ended without pausing it (it was killed, or a
  /// daemon stopped), not by the user's pause: it goes on when resumed, or when a daemon
  /// starts. Not kept: a list says it.
  public var interrupted = false

  public init(
    id: DownloadID, request: DownloadRequest, status: DownloadStatus, destination: URL?,
    receivedBytes: Int64 = 0, expectedBytes: Int64? = nil
  ) {
    self.id = id
    self.request = request
    self.status = status
    self.destination = destination
    self.receivedBytes = receivedBytes
    self.expectedBytes = expectedBytes
  }
}

/// How far a running download is.
public struct DownloadProgress: Sendable, Equatable {
  public var receivedBytes: Int64
  public var expectedBytes: Int64?
  /// Smoothed transfer rate.
  public var bytesPerSecond: Double
  /// At the current rate; nil when the size or the rate is unknown.
  public var estimatedTimeRemaining: Duration?

  public init(
    receivedBytes: Int64, expectedBytes: Int64?, bytesPerSecond: Double,
    estimatedTimeRemaining: Duration?
  ) {
    self.receivedBytes = receivedBytes
    self.expectedBytes = expectedBytes
    self.bytesPerSecond = bytesPerSecond
    self.estimatedTimeRemaining = estimatedTimeRemaining
  }

  /// Received over expected, from 0 to 1; nil when the size is unknown.
  public var fraction: Double? {
    guard let expectedBytes else { return nil }
    guard expectedBytes > 0 else { return 1 }
    return min(1, Double(receivedBytes) / Double(expectedBytes))
  }
}

/// What happened to a download.
public enum DownloadEvent: Sendable, Equatable {
  case added(Download)
  /// Any change of status but the last: a download ends with `finished` or `failed`.
  case statusChanged(DownloadID, DownloadStatus)
  case progress(DownloadID, DownloadProgress)
  /// Done: the file in place and its size, which a download that ends before its first
  /// progress event would otherwise never tell.
  case finished(DownloadID, file: URL, bytes: Int64)
  /// A download fetched again only if changed (`ifChanged`) found its file unchanged.
  case unchanged(DownloadID, file: URL, bytes: Int64)
  case failed(DownloadID, DownloadError)
  case removed(DownloadID)

  /// The download the event is about.
  public var downloadID: DownloadID {
    switch self {
    case .added(let download): return download.id
    case .statusChanged(let id, _), .progress(let id, _), .finished(let id, _, _),
      .unchanged(let id, _, _), .failed(let id, _), .removed(let id):
      return id
    }
  }
}

/// Why a download failed.
public enum DownloadError: Error, Sendable, Equatable, Codable {
  case unsupportedURL(String)
  case httpStatus(Int)
  case transport(String)
  case idleTimeout(seconds: Int)
  /// An attempt was slower than the configuration's `minimumSpeed`.
  case tooSlow(bytesPerSecond: Int, seconds: Int)
  case resourceTimeout(seconds: Int)
  case tooLarge(limit: Int64)
  case lengthMismatch(expected: Int64, received: Int64)
  case checksumMismatch(expected: FileChecksum, actual: String)
  case destinationExists(String)
  case file(String)
  case unknownDownload(DownloadID)
  /// A failure another attempt cannot heal: an untrusted certificate, too many redirects, a
  /// redirect to another scheme, a malformed response.
  case unrecoverable(String)
  /// The download was started with a password or secret headers, which are never kept: the
  /// command that started it must supply them again.
  case missingSecrets
  /// Another process writes the download (its process ID when known); this one must not.
  case busy(DownloadID, pid: Int32?)
  /// The server's answer did not continue the bytes on disk, which were dropped.
  case notContinued(String)

  /// Whether another attempt may succeed.
  public var isRetryable: Bool {
    switch self {
    case .transport, .idleTimeout, .tooSlow, .notContinued: return true
    case .httpStatus(let status): return HTTPError.isRetryable(status: status)
    default: return false
    }
  }

  /// Whether the transfer itself failed (no answer, a dropped connection, silence), which
  /// may mean the host is gone.
  public var isTransport: Bool {
    switch self {
    case .transport, .idleTimeout: return true
    default: return false
    }
  }
}

extension DownloadError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .unsupportedURL(let url): return "not an http or https URL: \(url)"
    case .httpStatus(let status): return "the server answered HTTP \(status)"
    case .transport(let reason): return reason
    case .idleTimeout(let seconds): return "no data for \(seconds) s"
    case .tooSlow(let bytesPerSecond, let seconds):
      return "slower than \(Self.size(Int64(bytesPerSecond)))/s for \(seconds) s"
    case .resourceTimeout(let seconds): return "not finished within \(seconds) s"
    case .tooLarge(let limit): return "larger than the limit of \(Self.size(limit))"
    case .lengthMismatch(let expected, let received):
      return "received \(received) bytes, expected \(expected)"
    case .checksumMismatch(let expected, let actual):
      return "\(expected.algorithm.rawValue.uppercased()) mismatch: expected \(expected.hex), "
        + "got \(actual)"
    case .destinationExists(let path):
      return "\(path) exists (--force overwrites it, --auto-file-renaming writes another name)"
    case .file(let reason): return reason
    case .unknownDownload(let id): return "no download \(id)"
    case .unrecoverable(let reason): return reason
    case .missingSecrets:
      return "the password or secret headers are not kept: run the command that started it again"
    case .busy(let id, let pid):
      let holder = pid.map { "process \($0)" } ?? "another process"
      return "download \(id) is being written by \(holder); wait for it to end, or stop it first"
    case .notContinued(let reason):
      return "the server's answer does not continue the file: \(reason)"
    }
  }

  /// `bytes` in the units a limit is typed in (`500K`, `10M`, powers of 1024) when it is a
  /// whole number of them, as `50 KiB`; else in bytes.
  private static func size(_ bytes: Int64) -> String {
    for (unit, name) in [(Int64(1) << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
    where bytes >= unit && bytes % unit == 0 {
      return "\(bytes / unit) \(name)"
    }
    return bytes == 1 ? "1 byte" : "\(bytes) bytes"
  }
}
