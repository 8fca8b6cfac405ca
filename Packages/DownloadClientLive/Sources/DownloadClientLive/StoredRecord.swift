import ChecksumTypes
import DownloadClient
import Foundation

/// A record as the journal keeps it: the queue's own schema (version 1, in the package README),
/// read here and written by `QueueLineWriter`, so that the public types (`Download`,
/// `DownloadRequest`, `DownloadStatus`) can change their `Codable` without changing what is on
/// disk. Version 1 is the layout those types' `Codable` gave when it was fixed (4.0.0), so
/// every queue written since reads; a line of a later version is refused by name.
struct StoredRecord: Decodable {
  /// The schema this reads and `QueueLineWriter` writes. A record without `schema` is 1.
  static let schema = 1

  let record: DownloadRecord

  private enum Keys: String, CodingKey {
    case schema, download, sequence, entityTag, lastModified, needsSecrets, segments, placing
    case partFile, mirrorValidators, failure
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    let schema = try container.decodeIfPresent(Int.self, forKey: .schema) ?? 1
    guard schema <= Self.schema else {
      throw DecodingError.dataCorruptedError(
        forKey: .schema, in: container,
        debugDescription: "a record of schema \(schema), written by a later version of fetcher")
    }
    var record = DownloadRecord(
      download: try container.decode(StoredDownload.self, forKey: .download).download,
      sequence: try container.decode(Int.self, forKey: .sequence),
      entityTag: try container.decodeIfPresent(String.self, forKey: .entityTag),
      lastModified: try container.decodeIfPresent(String.self, forKey: .lastModified),
      // Queues written before secrets were tracked have no such key.
      needsSecrets: try container.decodeIfPresent(Bool.self, forKey: .needsSecrets) ?? false)
    record.segments = try container.decodeIfPresent([Segment].self, forKey: .segments)
    record.placing = try container.decodeIfPresent(Bool.self, forKey: .placing) ?? false
    record.partFile = try container.decodeIfPresent(FileIdentity.self, forKey: .partFile)
    record.mirrorValidators = try container.decodeIfPresent(
      [String: String].self, forKey: .mirrorValidators)
    record.failure = try container.decodeIfPresent(DownloadError.self, forKey: .failure)
    self.record = record
  }
}

/// `{"id": {"rawValue": …}, "request": {…}, "status": {…}, "destination", "receivedBytes",
/// "expectedBytes", "failure"}`.
private struct StoredDownload: Decodable {
  let download: Download

  private enum Keys: String, CodingKey {
    case id, request, status, destination, receivedBytes, expectedBytes, failure
  }

  private struct ID: Decodable { let rawValue: String }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    var download = Download(
      id: DownloadID(try container.decode(ID.self, forKey: .id).rawValue),
      request: try container.decode(StoredRequest.self, forKey: .request).request,
      status: try container.decode(StoredStatus.self, forKey: .status).status,
      destination: try container.decodeIfPresent(URL.self, forKey: .destination),
      receivedBytes: try container.decode(Int64.self, forKey: .receivedBytes),
      expectedBytes: try container.decodeIfPresent(Int64.self, forKey: .expectedBytes))
    download.failure = try container.decodeIfPresent(DownloadError.self, forKey: .failure)
    self.download = download
  }
}

/// `{"url", "destination", "folder", "expectedChecksum": {"algorithm", "hex"}, "expectedSize",
/// "limits": {…}, "headers": {…}, "mirrors": […]}`; `expectedSHA256` in queues of before 2.0.
private struct StoredRequest: Decodable {
  let request: DownloadRequest

  private enum Keys: String, CodingKey {
    case url, destination, folder, expectedChecksum, expectedSHA256, expectedSize, limits
    case headers, mirrors
  }

  private struct Checksum: Decodable {
    let algorithm: String
    let hex: String
  }

  private struct Limits: Decodable {
    let maxSize: Int64?
    let bytesPerSecond: Int64?
    let maxSeconds: Double?
    let maxRetries: Int?
    let connections: Int?
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    var checksum: FileChecksum?
    if let stored = try container.decodeIfPresent(Checksum.self, forKey: .expectedChecksum) {
      guard let algorithm = DigestAlgorithm(rawValue: stored.algorithm),
        let read = FileChecksum(algorithm, hex: stored.hex)
      else {
        throw DecodingError.dataCorruptedError(
          forKey: .expectedChecksum, in: container,
          debugDescription: "no \(stored.algorithm) digest: \(stored.hex)")
      }
      checksum = read
    } else if let sha256 = try container.decodeIfPresent(String.self, forKey: .expectedSHA256) {
      checksum = FileChecksum(.sha256, hex: sha256)
    }
    var request = DownloadRequest(
      url: try container.decode(URL.self, forKey: .url),
      destination: try container.decodeIfPresent(URL.self, forKey: .destination),
      folder: try container.decodeIfPresent(URL.self, forKey: .folder),
      expectedChecksum: checksum,
      // Queues written before headers could be given have no such key.
      headers: try container.decodeIfPresent([String: String].self, forKey: .headers) ?? [:],
      mirrors: try container.decodeIfPresent([URL].self, forKey: .mirrors) ?? [])
    request.expectedSize = try container.decodeIfPresent(Int64.self, forKey: .expectedSize)
    request.limits = try container.decodeIfPresent(Limits.self, forKey: .limits).map {
      var limits = DownloadLimits(
        maxSize: $0.maxSize, bytesPerSecond: $0.bytesPerSecond, maxSeconds: $0.maxSeconds,
        maxRetries: $0.maxRetries)
      limits.connections = $0.connections
      return limits
    }
    self.request = request
  }
}

/// One key, the state, holding an object: `{"queued": {}}`, `{"retrying": {"attempt": 2}}`,
/// `{"failed": {"reason": "…"}}`.
private struct StoredStatus: Decodable {
  let status: DownloadStatus

  private enum Keys: String, CodingKey {
    case queued, running, retrying, waitingForNetwork, paused, completed, failed
  }

  private struct Attempt: Decodable { let attempt: Int }
  private struct Reason: Decodable { let reason: String }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    guard container.allKeys.count == 1, let key = container.allKeys.first else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "no one state"))
    }
    switch key {
    case .queued: status = .queued
    case .running: status = .running
    case .waitingForNetwork: status = .waitingForNetwork
    case .paused: status = .paused
    case .completed: status = .completed
    case .retrying:
      status = .retrying(attempt: try container.decode(Attempt.self, forKey: key).attempt)
    case .failed: status = .failed(reason: try container.decode(Reason.self, forKey: key).reason)
    }
  }
}
