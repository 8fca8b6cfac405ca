import DownloadClient
import Foundation
import Store

/// What is persisted of a download so that it can continue after a restart or a crash: the
/// download itself, its place in the queue, and the validators of the bytes on disk.
public struct DownloadRecord: Codable, Sendable, Equatable {
  public var download: Download
  /// The order in which downloads were added.
  public var sequence: Int
  public var entityTag: String?
  public var lastModified: String?

  public init(
    download: Download, sequence: Int, entityTag: String? = nil, lastModified: String? = nil
  ) {
    self.download = download
    self.sequence = sequence
    self.entityTag = entityTag
    self.lastModified = lastModified
  }
}

/// The persisted queue: every record, under one key.
public typealias DownloadStore = Store<String, [DownloadRecord]>

extension Store where Key == String, Value == [DownloadRecord] {
  /// The key that holds the queue.
  static var queueKey: String { "downloads" }
}
