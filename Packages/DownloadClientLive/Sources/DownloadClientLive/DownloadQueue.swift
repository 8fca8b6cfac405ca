import DownloadClient
import Foundation

/// The downloads as this process sees them, and the operations on the persisted queue
/// (`DownloadStore`). Each costs the same however long the queue is: records are found by
/// their indexes (`QueueState`), and the queued ones wait in order of addition in a heap.
struct DownloadQueue {
  private var state: QueueState
  /// The queued downloads by sequence; an entry whose download is no longer queued is
  /// dropped when it comes up.
  private var waiting = SequenceHeap()

  /// A queue of `records`. Downloads that were active in a process that ended are paused:
  /// they continue when resumed or started again.
  init(_ records: [DownloadRecord] = []) {
    state = QueueState(records.map(Self.pausedIfActive))
  }

  /// `record` as this process sees it: a download active elsewhere is paused here.
  private static func pausedIfActive(_ record: DownloadRecord) -> DownloadRecord {
    var record = record
    if record.download.status.isActive { record.download.status = .paused }
    return record
  }

  /// The records in the order they were added.
  var records: [DownloadRecord] { state.ordered }

  func record(_ id: DownloadID) throws(DownloadError) -> DownloadRecord {
    guard let record = state[id] else { throw .unknownDownload(id) }
    return record
  }

  /// Whether a download other than `id` that may still write `destination` has it.
  func isHeld(_ destination: URL, except id: DownloadID?) -> Bool {
    state.isHeld(destination, except: id)
  }

  /// `destination` when it is free (no file there, or `overwrite`), else with
  /// `autoFileRenaming` the first free `name.N.ext` that no download of this queue other than
  /// `id` that may still write has either; nil when there is none. With `autoFileRenaming`, a
  /// name another download may still write is taken too (without, adding fails and says
  /// which download has it).
  func freeName(
    for destination: URL, of id: DownloadID?, configuration: DownloadConfiguration
  ) -> URL? {
    if configuration.overwrite { return destination }
    if !PartFile.exists(destination),
      !configuration.autoFileRenaming || !isHeld(destination, except: id)
    {
      return destination
    }
    guard configuration.autoFileRenaming else { return nil }
    let folder = destination.deletingLastPathComponent()
    for number in 1...9999 {
      let candidate = folder.appendingPathComponent(
        FileName.numbered(destination.lastPathComponent, number), isDirectory: false)
      if !PartFile.exists(candidate), !PartFile.exists(PartFile.url(for: candidate)),
        !isHeld(candidate, except: id)
      {
        configuration.log(
          .info, "\(destination.lastPathComponent) exists; writing \(candidate.lastPathComponent)")
        return candidate
      }
    }
    return nil
  }

  /// The download of the same URL and destination as `request`, secrets aside; a request
  /// without a destination names its file in `folder`.
  func matching(_ request: DownloadRequest, in folder: URL) -> DownloadRecord? {
    state.matching(request, in: folder)
  }

  /// The first queued download, in order, for which `canStart` holds; it leaves the waiting
  /// line (it is started, or already runs).
  mutating func nextQueued(where canStart: (DownloadID) -> Bool) -> DownloadID? {
    while let (sequence, id) = waiting.popMin() {
      // A download moved since it was put in the heap is there again under its new sequence.
      guard state[id]?.download.status == .queued, state[id]?.sequence == sequence else {
        continue
      }
      if canStart(id) { return id }
    }
    return nil
  }

  /// Adds `record`, a new one of this process, after the others.
  mutating func append(_ record: DownloadRecord) {
    replace(record)
  }

  /// Adds `record`, which another process added, after the others: paused here if active.
  mutating func adopt(_ record: DownloadRecord) {
    replace(Self.pausedIfActive(record))
  }

  /// Puts `record` in place of the one with its ID, or adds it.
  mutating func replace(_ record: DownloadRecord) {
    let old = state[record.download.id]
    let wasQueued = old?.download.status == .queued && old?.sequence == record.sequence
    state.put(record)
    if record.download.status == .queued && !wasQueued {
      waiting.insert(record.sequence, record.download.id)
    }
  }

  mutating func remove(_ id: DownloadID) {
    state.remove(id)
  }

  // MARK: Persistence

  /// The queue persisted in `store`.
  static func load(from store: DownloadStore) throws -> DownloadQueue {
    DownloadQueue(try store.records())
  }

  /// The stored record of `id`, if any.
  static func stored(_ id: DownloadID, in store: DownloadStore) throws -> DownloadRecord? {
    var record: DownloadRecord?
    try store.read { record = $0[id] }
    return record
  }

  /// Adds `record` to `store` after the others (see `QueueState.insert`), unless another
  /// download writes its destination; another process may have added the same request
  /// meanwhile (`.existing`), which `joining` goes on with.
  static func insert(_ record: DownloadRecord, into store: DownloadStore, joining: Bool = true)
    throws -> QueueState.Insertion
  {
    var outcome: QueueState.Insertion?
    try store.transaction { outcome = try $0.insert(record, joining: joining) }
    return outcome!
  }

  /// Adds `records` to `store` after the others in one atomic update, as `insert` does each
  /// (`joining` as given), up to the first that would not be plainly added: a download of the
  /// same request is there, or another download writes its destination. Returns those added,
  /// each with the done or failed downloads of its file it replaced.
  static func insert(
    _ records: [(record: DownloadRecord, joining: Bool)], into store: DownloadStore
  ) throws -> [(record: DownloadRecord, replaced: [DownloadID])] {
    guard !records.isEmpty else { return [] }
    var added: [(record: DownloadRecord, replaced: [DownloadID])] = []
    try store.transaction { state in
      for (record, joining) in records {
        guard case .added(let record, let replaced)? = try? state.insert(record, joining: joining)
        else { break }
        added.append((record, replaced))
      }
    }
    return added
  }

  /// Changes the stored record of `id` with `body`, after giving it `status` (which the
  /// process running a download decides, knowing it as `known`, nil for as stored: see
  /// `DownloadRecord.set(_:knownAs:)`), in one atomic update; returns the stored result, nil
  /// when the record is gone (cancelled by another process). With `reserving`, fails when
  /// another download writes that file.
  static func change(
    _ id: DownloadID, in store: DownloadStore, status: DownloadStatus,
    knownAs known: DownloadStatus? = nil, reserving: URL? = nil,
    _ body: (inout DownloadRecord) -> Void = { _ in }
  ) throws -> DownloadRecord? {
    var changed: DownloadRecord?
    try store.transaction { state in
      guard var record = state[id] else { return }
      if let reserving { try state.reserve(reserving, for: id) }
      record.set(status, knownAs: known)
      body(&record)
      state.put(record)
      changed = record
    }
    return changed
  }

  /// Gives the stored records of `ids` `status` in one atomic update, each known to this
  /// process as `known` says (`DownloadRecord.set(_:knownAs:)`); returns those changed (a
  /// record another process removed is not).
  static func change(
    _ ids: [DownloadID], in store: DownloadStore, status: DownloadStatus,
    knownAs known: (DownloadID) -> DownloadStatus? = { _ in nil }
  ) throws -> [DownloadRecord] {
    var changed: [DownloadRecord] = []
    try store.transaction { state in
      for id in ids {
        guard var record = state[id] else { continue }
        record.set(status, knownAs: known(id))
        state.put(record)
        changed.append(record)
      }
    }
    return changed
  }

  /// Moves `id` to `position` among the stored records `waits` takes (see `QueueState.move`) in
  /// one atomic update; returns the position it got and the records changed, nil when `waits`
  /// does not take it.
  static func move(
    _ id: DownloadID, to position: Int, in store: DownloadStore,
    among waits: (DownloadRecord) -> Bool
  ) throws -> (position: Int, changed: [DownloadRecord])? {
    var moved: (position: Int, changed: [DownloadRecord])?
    try store.transaction { moved = $0.move(id, to: position, among: waits) }
    return moved
  }

  /// Removes the record of `id` from `store`.
  static func delete(_ id: DownloadID, from store: DownloadStore) throws {
    try store.transaction { $0.remove(id) }
  }
}

/// A binary min-heap of (sequence, ID) pairs.
private struct SequenceHeap {
  private var items: [(sequence: Int, id: DownloadID)] = []

  mutating func insert(_ sequence: Int, _ id: DownloadID) {
    items.append((sequence, id))
    var child = items.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard items[child].sequence < items[parent].sequence else { break }
      items.swapAt(child, parent)
      child = parent
    }
  }

  mutating func popMin() -> (Int, DownloadID)? {
    guard let first = items.first else { return nil }
    let last = items.removeLast()
    if !items.isEmpty {
      items[0] = last
      var parent = 0
      while true {
        let (left, right) = (2 * parent + 1, 2 * parent + 2)
        var smallest = parent
        if left < items.count && items[left].sequence < items[smallest].sequence { smallest = left }
        if right < items.count && items[right].sequence < items[smallest].sequence {
          smallest = right
        }
        guard smallest != parent else { break }
        items.swapAt(parent, smallest)
        parent = smallest
      }
    }
    return first
  }
}
