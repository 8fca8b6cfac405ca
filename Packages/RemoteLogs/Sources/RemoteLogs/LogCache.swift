import Checksum
import DownloadClient
import Foundation
import HTTPClient

/// The logs `analyze` downloads from URLs, kept in `folder` and reused while their server says
/// they have not changed (a conditional request each time), through the download manager.
public struct LogCache: Sendable {
  public let folder: URL

  public init(folder: URL) {
    self.folder = folder
  }

  /// The cached copy of the log at `url`: a name of its own for the whole URL (secrets
  /// aside), the first 16 hex digits of its SHA-256, then the URL's file name, whose `.gz`
  /// says how to read it.
  public func file(for url: URL) -> URL {
    var hasher = Digest(.sha256)
    hasher.update(Data(url.redactingPassword.absoluteString.utf8))
    let key = hasher.finalize().prefix(16)
    return folder.appendingPathComponent("\(key)-\(FileName.fromURL(url))")
  }

  /// The download manager's configuration for the cache: each download asks whether the
  /// copy changed (`ifChanged`); with `refresh`, it is fetched again whatever the answer.
  public func configuration(refresh: Bool) -> DownloadConfiguration {
    var configuration = DownloadConfiguration(outputDirectory: folder)
    configuration.ifChanged = true
    configuration.overwrite = refresh
    return configuration
  }

  /// Removes the copy of the log at `url` unless `downloads` (the queue) holds it as done:
  /// a copy the queue no longer knows (cleared) has no validators to ask with, so it is
  /// fetched again rather than taken as current. Whether it was removed.
  @discardableResult
  public func dropUnknownCopy(of url: URL, knownTo downloads: [Download]) -> Bool {
    let cached = file(for: url)
    let known = downloads.contains { $0.destination == cached && $0.status == .completed }
    guard !known, FileManager.default.fileExists(atPath: cached.path) else { return false }
    return (try? FileManager.default.removeItem(at: cached)) != nil
  }
}
