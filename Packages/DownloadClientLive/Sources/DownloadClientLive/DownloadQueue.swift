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
    self.records = records.sorted { $0.sequence < $1.sequence }.map(Self.pausedIfActive)
  }

  /// `record` as this process sees it: a download active elsewhere is paused here.
  private static func pausedIfActive(_ record: DownloadRecord) -> DownloadRecord {
    var record = record
    if record.download.status.isActive { record.download.status = .paused }
    return record
  }

  func record(_ id: DownloadID) throws(DownloadError) -> DownloadRecord {
    guard let record = records.first(where: { $0.download.id == id }) else {
      throw .unknownDownload(id)
    }
    return record
  }

  /// The download of the same URL and destination as `request`, secrets aside; a request
  /// without a destination names its file in `folder`.
  func matching(_ request: DownloadRequest, in folder: URL) -> DownloadRecord? {
    Self.first(matching: request, in: folder, among: records)
  }

  /// The first of `records` with the URL and destination of `request`, secrets aside.
  private static func first(
    matching request: DownloadRequest, in folder: URL, among records: [DownloadRecord]
  ) -> DownloadRecord? {
    let redacted = request.redacted
    return records.first { record in
      guard record.download.request.url == redacted.url,
        record.download.request.destination == redacted.destination
      else { return false }
      return redacted.destination != nil
        || record.download.destination?.deletingLastPathComponent().standardizedFileURL
          == folder.standardizedFileURL
    }
  }

  /// The queued downloads, in order.
  var queued: [DownloadID] {
    records.filter { $0.download.status == .queued }.map(\.download.id)
  }

  /// A new record for `download`, to be placed after the others.
  func newRecord(_ download: Download, needsSecrets: Bool) -> DownloadRecord {
    DownloadRecord(
      download: download, sequence: (records.map(\.sequence).max() ?? 0) + 1,
      needsSecrets: needsSecrets)
  }

  /// Adds `record`, a new one of this process, after the others.
  mutating func append(_ record: DownloadRecord) {
    records.append(record)
  }

  /// Adds `record`, which another process added, after the others: paused here if active.
  mutating func adopt(_ record: DownloadRecord) {
    records.append(Self.pausedIfActive(record))
  }

  /// Puts `record` in place of the one with its ID.
  mutating func replace(_ record: DownloadRecord) {
    guard let index = records.firstIndex(where: { $0.download.id == record.download.id }) else {
      return
    }
    records[index] = record
  }

  mutating func remove(_ id: DownloadID) {
    records.removeAll { $0.download.id == id }
  }

  // MARK: Persistence

  /// The queue persisted in `store`.
  static func load(from store: DownloadStore) async throws -> DownloadQueue {
    DownloadQueue(try await store.load(DownloadStore.queueKey) ?? [])
  }

  /// Adds `record` to `store`, unless another download writes its destination. Returns nil,
  /// or the stored record of the same request that another process added meanwhile (and then
  /// adds nothing).
  @discardableResult
  static func insert(_ record: DownloadRecord, into store: DownloadStore) async throws
    -> DownloadRecord?
  {
    let request = record.download.request
    let folder =
      record.download.destination?.deletingLastPathComponent() ?? URL(fileURLWithPath: "/")
    let stored = try await store.update(DownloadStore.queueKey) { list in
      var list = list ?? []
      if first(matching: request, in: folder, among: list) != nil { return list }
      if let destination = record.download.destination {
        try reserve(destination, for: record.download.id, in: &list)
      }
      list.append(record)
      return list
    }
    let added = first(matching: request, in: folder, among: stored ?? [])
    return added?.download.id == record.download.id ? nil : added
  }

  /// Changes the stored record of `id` with `body`, after giving it `status` (which the
  /// process running a download decides), in one atomic update; returns the stored result, nil
  /// when the record is gone (cancelled by another process). With `reserving`, fails when
  /// another download writes that file.
  static func change(
    _ id: DownloadID, in store: DownloadStore, status: DownloadStatus, reserving: URL? = nil,
    _ body: @escaping @Sendable (inout DownloadRecord) -> Void = { _ in }
  ) async throws -> DownloadRecord? {
    let list = try await store.update(DownloadStore.queueKey) { list in
      guard var list, list.contains(where: { $0.download.id == id }) else { return list }
      if let reserving { try reserve(reserving, for: id, in: &list) }
      guard let index = list.firstIndex(where: { $0.download.id == id }) else { return list }
      list[index].download.status = status
      body(&list[index])
      return list
    }
    return list?.first { $0.download.id == id }
  }

  /// Reserves `destination` for `id` in `list`: throws when another download that may still
  /// write it (queued, running, paused) has it; a done or failed one gives it up and leaves
  /// the list, since the new download replaces it.
  private static func reserve(
    _ destination: URL, for id: DownloadID, in list: inout [DownloadRecord]
  ) throws {
    let others = list.filter { $0.download.id != id && $0.download.destination == destination }
    if others.contains(where: { !$0.download.status.hasEnded }) {
      throw DownloadError.file("another download already writes \(destination.path)")
    }
    list.removeAll { record in others.contains { $0.download.id == record.download.id } }
  }

  /// Removes the record of `id` from `store`.
  static func delete(_ id: DownloadID, from store: DownloadStore) async throws {
    _ = try await store.update(DownloadStore.queueKey) { list in
      list.map { $0.filter { $0.download.id != id } }
    }
  }
}
