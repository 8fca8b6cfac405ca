import DownloadClient
import Foundation
import HTTPClient

/// What is persisted of a download so that it can continue after a restart or a crash: the
/// download itself (its request without secrets), its place in the queue, and the validators
/// of the bytes on disk. On disk in the queue's own schema: `StoredRecord` reads it,
/// `QueueLineWriter` writes it.
struct DownloadRecord: Sendable, Equatable {
  var download: Download
  /// The order in which downloads were added.
  var sequence: Int
  var entityTag: String?
  var lastModified: String?
  /// The request had secrets (a password, secret headers), which were not kept: it can only
  /// run again when they are supplied again.
  var needsSecrets: Bool
  /// The segments of a file fetched over several connections, with how far each got.
  var segments: [Segment]?
  /// The part file was complete and checked, and is being moved into place: a run that finds
  /// this set finishes the move, or the record when the file is already there. Set only when
  /// `partFile` cannot tell (a queue of an earlier version, whose segments named none).
  var placing: Bool
  /// The part file being written, saved with the response head (or as segments open it): a
  /// part file of another identity is not the download's and is never taken over
  /// (`PartFile.refusal`), and a file in place with this identity (a move keeps it) and the
  /// download's size is the download's own, moved there by a run that ended before it could
  /// say so. Nil once the download is done.
  var partFile: FileIdentity?
  /// For a download with mirrors, the validator each mirror answered with, by its URL
  /// without a password: a range asked of a mirror is of the file it served before.
  var mirrorValidators: [String: String]?
  /// Why the download failed, while its status is `failed`: kept as data, so that its aria2
  /// error code outlives the process (nil in records of earlier versions).
  var failure: DownloadError?

  init(
    download: Download, sequence: Int, entityTag: String? = nil, lastModified: String? = nil,
    needsSecrets: Bool = false
  ) {
    self.download = download
    self.sequence = sequence
    self.entityTag = entityTag
    self.lastModified = lastModified
    self.needsSecrets = needsSecrets
    placing = false
  }
}

extension DownloadRecord {
  /// The bytes received: the part file's size, or what its segments hold.
  var bytesOnDisk: Int64 {
    if let segments { return segments.received }
    guard let destination = download.destination else { return 0 }
    return PartFile.size(ofPartOf: destination)
  }

  /// The download with the bytes on disk as its received bytes, unless it is completed.
  var downloadWithBytesOnDisk: Download {
    var download = self.download
    if download.status != .completed { download.receivedBytes = bytesOnDisk }
    if case .failed = download.status { download.failure = failure }
    return download
  }

  /// Gives the download `status`; its failure is kept only while it has failed.
  mutating func set(_ status: DownloadStatus) {
    download.status = status
    if case .failed = status {} else { failure = nil }
  }

  /// Gives the stored download `status`, which a process decided while it knew the download
  /// as `known` (nil: as stored); one another process finished since then (done here, not in
  /// `known`) stays done, its file in place.
  mutating func set(_ status: DownloadStatus, knownAs known: DownloadStatus?) {
    if let known, known != .completed, download.status == .completed { return }
    set(status)
  }
}

extension DownloadRecord {
  /// What proves that a range of the server's file continues the bytes on disk (`If-Range`):
  /// a strong `ETag`, else `Last-Modified`. A weak tag (`W/`, as nginx gives a compressed
  /// answer) cannot, by RFC 9110.
  var rangeValidator: String? { Self.rangeValidator(entityTag: entityTag, lastModified) }

  static func rangeValidator(entityTag: String?, _ lastModified: String?) -> String? {
    entityTag.flatMap { $0.hasPrefix("W/") ? nil : $0 } ?? lastModified
  }
}

extension HTTPResponseHead {
  /// The answer's validator for a later range (`DownloadRecord.rangeValidator`'s rule).
  var rangeValidator: String? {
    DownloadRecord.rangeValidator(entityTag: headers["ETag"], headers["Last-Modified"])
  }
}

/// Which file a path names, whatever its name: its device and inode numbers.
struct FileIdentity: Codable, Sendable, Equatable {
  var device: UInt64
  var inode: UInt64
}
