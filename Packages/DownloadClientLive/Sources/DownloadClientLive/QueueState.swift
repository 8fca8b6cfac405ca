import DownloadClient
import Foundation

/// Every download's record, indexed by ID, by URL and by destination, so that each operation
/// of the queue costs the same however many downloads it holds. Records never hold a secret:
/// requests are kept redacted (see `DownloadRequest.redacted`).
struct QueueState: Sendable {
  private(set) var records: [DownloadID: DownloadRecord] = [:]
  private var byURL: [URL: Set<DownloadID>] = [:]
  private var byDestination: [URL: Set<DownloadID>] = [:]
  /// The highest sequence given so far.
  private(set) var lastSequence = 0
  /// The IDs put or removed inside `recordingChanges`; nil outside it.
  private var changed: Set<DownloadID>?

  init(_ records: some Sequence<DownloadRecord> = []) {
    for record in records { put(record) }
  }

  /// The records in the order they were added.
  var ordered: [DownloadRecord] {
    // The keys are sorted, not the records, which are large to move.
    records.map { ($0.value.sequence, $0.key) }.sorted { $0.0 < $1.0 }.compactMap { records[$0.1] }
  }

  subscript(id: DownloadID) -> DownloadRecord? { records[id] }

  /// Adds or replaces `record`.
  mutating func put(_ record: DownloadRecord) {
    let id = record.download.id
    let old = records.updateValue(record, forKey: id)
    // Most changes keep the keys: the indexes stay as they are.
    if old?.download.request.url != record.download.request.url
      || old?.download.destination != record.download.destination
    {
      if let old { unindex(old) }
      byURL[record.download.request.url, default: []].insert(id)
      if let destination = record.download.destination {
        byDestination[destination, default: []].insert(id)
      }
    }
    lastSequence = max(lastSequence, record.sequence)
    changed?.insert(id)
  }

  mutating func remove(_ id: DownloadID) {
    guard let old = records.removeValue(forKey: id) else { return }
    unindex(old)
    changed?.insert(id)
  }

  /// Runs `body` on this state and returns the IDs it put or removed, for a store that
  /// writes only those.
  mutating func recordingChanges(_ body: (inout QueueState) throws -> Void) rethrows
    -> Set<DownloadID>
  {
    changed = []
    defer { changed = nil }
    try body(&self)
    return changed ?? []
  }

  private mutating func unindex(_ record: DownloadRecord) {
    let id = record.download.id
    byURL[record.download.request.url]?.remove(id)
    if byURL[record.download.request.url]?.isEmpty == true {
      byURL[record.download.request.url] = nil
    }
    if let destination = record.download.destination {
      byDestination[destination]?.remove(id)
      if byDestination[destination]?.isEmpty == true { byDestination[destination] = nil }
    }
  }

  /// The first download of the same URL and destination as `request`, secrets aside; a
  /// request without a destination names its file in `folder`.
  func matching(_ request: DownloadRequest, in folder: URL) -> DownloadRecord? {
    let redacted = request.redacted
    let candidates = (byURL[redacted.url] ?? []).compactMap { records[$0] }.filter { record in
      guard record.download.request.destination == redacted.destination else { return false }
      return redacted.destination != nil
        || record.download.destination?.deletingLastPathComponent().standardizedFileURL
          == folder.standardizedFileURL
    }
    return candidates.min { $0.sequence < $1.sequence }
  }

  /// Whether a download other than `id` that may still write `destination` has it.
  func isHeld(_ destination: URL, except id: DownloadID?) -> Bool {
    (byDestination[destination] ?? []).contains { other in
      other != id && records[other]?.download.status.hasEnded == false
    }
  }

  /// Reserves `destination` for `id`: throws when another download that may still write it
  /// (queued, running, paused) has it; a done or failed one gives it up and is removed, since
  /// the new download replaces it. Returns the IDs removed.
  @discardableResult
  mutating func reserve(_ destination: URL, for id: DownloadID) throws -> [DownloadID] {
    let others = (byDestination[destination] ?? []).filter { $0 != id }.compactMap {
      records[$0]
    }
    if let holder = others.first(where: { !$0.download.status.hasEnded }) {
      let download = holder.download
      throw DownloadError.file(
        "\(destination.path) is the file of download \(download.id) (\(Self.word(for: download.status)), "
          + "\(download.request.url.absoluteString)); finish it (fetcher downloads resume "
          + "\(download.id)) or free the name (fetcher downloads cancel \(download.id))")
    }
    for other in others { remove(other.download.id) }
    return others.map(\.download.id)
  }

  /// Moves `id` to `position` (from 0) among the records `waits` takes, in their order: those
  /// between its place and the new one give and take their sequences, the others keep theirs.
  /// Returns the position it got (the last past the end) and the records changed; nil when
  /// `waits` does not take it.
  mutating func move(
    _ id: DownloadID, to position: Int, among waits: (DownloadRecord) -> Bool
  ) -> (position: Int, changed: [DownloadRecord])? {
    let line = ordered.filter(waits)
    guard let from = line.firstIndex(where: { $0.download.id == id }) else { return nil }
    let to = min(max(position, 0), line.count - 1)
    var order = line
    order.insert(order.remove(at: from), at: to)
    let changed = (min(from, to)...max(from, to)).map { index in
      var record = order[index]
      record.sequence = line[index].sequence
      return record
    }
    for record in changed { put(record) }
    return (to, changed)
  }

  /// How a download that holds a name is said to be.
  private static func word(for status: DownloadStatus) -> String {
    switch status {
    case .queued: return "queued"
    case .paused: return "paused"
    default: return "running or interrupted"
    }
  }

  /// What `insert` did.
  enum Insertion: Equatable {
    /// A download of the same request was there: nothing was added.
    case existing(DownloadRecord)
    /// The record as added, and the done or failed downloads of its file it replaced.
    case added(DownloadRecord, replaced: [DownloadID])
  }

  /// Adds `record` after the others (its sequence is given here, and a new ID when another
  /// download has its ID: 32 random bits meet again after about 77,000 downloads), unless a
  /// download of the same request is there and it is `joining`. Throws when another download
  /// writes its destination.
  mutating func insert(_ record: DownloadRecord, joining: Bool = true) throws -> Insertion {
    let download = record.download
    let folder = download.destination?.deletingLastPathComponent() ?? URL(fileURLWithPath: "/")
    if joining, let existing = matching(download.request, in: folder) {
      return .existing(existing)
    }
    let replaced = try download.destination.map { try reserve($0, for: download.id) } ?? []
    var added = record
    added.sequence = lastSequence + 1
    while records[added.download.id] != nil { added.download.id = .random() }
    put(added)
    return .added(added, replaced: replaced)
  }
}
