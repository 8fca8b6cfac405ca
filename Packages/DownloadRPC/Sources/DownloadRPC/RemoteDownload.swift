import DownloadClient
import Foundation

/// A download as the daemon's own method `fetcher.list` gives it, whole, for
/// `DownloadClient.remote`: aria2's `tellStatus` has no room for what its rows show (a retry's
/// number, the request's limits, the cause of a failure).
public struct RemoteDownload: Sendable, Equatable, Codable {
  /// The method that lists every download this way, in the order they were added.
  public static let listMethod = "fetcher.list"
  /// The method that lists only the downloads that transfer (`transfers`), in the same
  /// order: what changes between two notifications.
  public static let listTransferringMethod = "fetcher.listTransferring"

  /// Whether `status` is one whose bytes may be coming in: running, or about to again (a
  /// retry, a wait for the network), which notifications do not tell.
  public static func transfers(_ status: DownloadStatus) -> Bool {
    switch status {
    case .running, .retrying, .waitingForNetwork: return true
    case .queued, .paused, .completed, .failed: return false
    }
  }

  public var download: Download
  public var bytesPerSecond: Double
  /// Why it failed, when the daemon saw it fail.
  public var error: DownloadError?

  public init(download: Download, bytesPerSecond: Double, error: DownloadError?) {
    self.download = download
    self.bytesPerSecond = bytesPerSecond
    self.error = error
  }

  /// As JSON.
  public var value: JSONValue {
    // Encoding plain values cannot fail, and the JSON decodes to a JSONValue.
    (try? JSONValue(json: JSONEncoder().encode(self))) ?? .null
  }

  /// The download `value` holds; throws when it holds none.
  public init(_ value: JSONValue) throws {
    self = try JSONDecoder().decode(RemoteDownload.self, from: value.json)
  }
}
