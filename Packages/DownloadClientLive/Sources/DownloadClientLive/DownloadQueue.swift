import DownloadClient
import Foundation
import Store

/// The downloads in the order they were added, and their persisted records. Records never
/// hold a secret: requests are kept redacted (see `DownloadRequest.redacted`).
struct DownloadQueue {
  private(set) var records: [DownloadRecord]

  /// A queue of `records`, in order. Downloads that were active in a process that ended are
  /// paused: they continue when resumed or started again.
  init(_ records: [DownloadRecord] = []) {
    self.records = records.sorted { $0.sequence < $1.sequence }
    for index in self.records.indices where self.records[index].download.status.isActive {
      self.records[index].download.status = .paused
    }
  }

  func record(_ id: DownloadID) throws(DownloadError) -> DownloadRecord {
    guard let record = records.first(where: { $0.download.id == id }) else {
      throw .unknownDownload(id)
    }
    return record
  }

  /// The download of the same URL and destination as `request`, secrets aside.
  func matching(_ request: DownloadRequest) -> DownloadRecord? {
    let redacted = request.redacted
    return records.first {
      $0.download.request.url == redacted.url
        && $0.download.request.destination == redacted.destination
    }
  }

  /// Whether a download already writes `destination`.
  func writes(_ destination: URL) -> Bool {
    records.contains { $0.download.destination == destination }
  }

  /// The queued downloads, in order.
  var queued: [DownloadID] {
    records.filter { $0.download.status == .queued }.map(\.download.id)
  }

  /// A new record for `download`, placed after the others.
  mutating func add(_ download: Download, needsSecrets: Bool) -> DownloadRecord {
    let record = DownloadRecord(
      download: download, sequence: (records.map(\.sequence).max() ?? 0) + 1,
      needsSecrets: needsSecrets)
    records.append(record)
    return record
  }

  /// Changes the record of `id` and returns it; nil when there is none.
  mutating func change(_ id: DownloadID, _ body: (inout DownloadRecord) -> Void)
    -> DownloadRecord?
  {
    guard let index = records.firstIndex(where: { $0.download.id == id }) else { return nil }
    body(&records[index])
    return records[index]
  }

  mutating func remove(_ id: DownloadID) {
    records.removeAll { $0.download.id == id }
  }

  // MARK: Persistence

  /// The queue persisted in `store`.
  static func load(from store: DownloadStore) async throws -> DownloadQueue {
    DownloadQueue(try await store.load(DownloadStore.queueKey) ?? [])
  }

  /// Writes `record` into `store`, in place of the one with its ID, in one atomic update.
  static func save(_ record: DownloadRecord, to store: DownloadStore) async throws {
    _ = try await store.update(DownloadStore.queueKey) { list in
      var list = list ?? []
      if let index = list.firstIndex(where: { $0.download.id == record.download.id }) {
        list[index] = record
      } else {
        list.append(record)
      }
      return list
    }
  }

  /// Removes the record of `id` from `store`.
  static func delete(_ id: DownloadID, from store: DownloadStore) async throws {
    _ = try await store.update(DownloadStore.queueKey) { list in
      list.map { $0.filter { $0.download.id != id } }
    }
  }
}
