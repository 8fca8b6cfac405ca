import DownloadClient
import Foundation
import StoreLive
import Synchronization

/// The persisted queue. Each operation is one transaction over the stored records, atomic
/// across threads and processes, whose cost does not grow with the queue: a change writes the
/// records it changed, not the queue.
public struct DownloadStore: Sendable {
  /// Runs `body` on the queue as stored, with nothing changing in between, and keeps the
  /// records it put or removed. `body` throws before it changes anything.
  /// Synchronous, so that the engine's actor changes the queue without leaving its thread.
  let transaction: @Sendable (_ body: (inout QueueState) throws -> Void) throws -> Void
  /// Runs `body` on the queue as stored: a transaction that changes nothing, cheaper when
  /// nothing changed since this process last looked.
  let read: @Sendable (_ body: (QueueState) throws -> Void) throws -> Void

  /// A store of `transaction`; a `read` is a transaction that changes nothing, unless given.
  init(
    transaction: @escaping @Sendable (_ body: (inout QueueState) throws -> Void) throws -> Void,
    read: (@Sendable (_ body: (QueueState) throws -> Void) throws -> Void)? = nil
  ) {
    self.transaction = transaction
    self.read = read ?? { body in try transaction { try body($0) } }
  }

  /// Every record, in the order they were added.
  func records() throws -> [DownloadRecord] {
    var records: [DownloadRecord] = []
    try read { records = $0.ordered }
    return records
  }
}

extension DownloadStore {
  /// A queue in memory, for one process.
  public static func inMemory() -> DownloadStore {
    let state = Mutex(QueueState())
    return DownloadStore(
      transaction: { body in try state.withLock { try body(&$0) } },
      read: { body in try state.withLock { try body($0) } })
  }

  /// The queue kept in the journal file at `url` (`Journal`): one JSON line per record put
  /// (`{"record": …}`) or removed (`{"removed": "id"}`), so the last line of a download is
  /// its state; rewritten with one line per record once it holds more than twice that many
  /// lines (and a thousand). A line that cannot be read is an error
  /// (`StoreFileError.corrupt`, naming the line) and the file is left as it is. The queue
  /// that earlier versions kept in the single JSON file `legacy` is moved into the journal
  /// on first use, and that file removed.
  public static func file(at url: URL, legacy: URL? = nil) -> DownloadStore {
    let journal = Journal(url: url)
    let replica = Replica()
    let path = url.path
    let transaction: @Sendable ((inout QueueState) throws -> Void) throws -> Void = { body in
      var migrated = false
      try journal.transaction { catchup in
        if catchup.fromStart { replica.reset() }
        try replica.apply(catchup, path: path)
        if catchup.lineCount == 0, let legacy {
          migrated = try replica.migrate(legacy)
        }
        let lines = try replica.change(body)
        if migrated || catchup.lineCount + lines.count > 2 * replica.state.records.count + 1000 {
          return (.replace(replica.allLines()), ())
        }
        return (.append(lines), ())
      }
      if migrated, let legacy {
        try? FileManager.default.removeItem(at: legacy)
        try? FileManager.default.removeItem(at: legacy.appendingPathExtension("lock"))
      }
    }
    return DownloadStore(
      transaction: transaction,
      read: { body in
        // Without the lock when the file is as this process last saw it (the replica is
        // only touched under the journal's process lock, which `ifUnchanged` holds).
        if try journal.ifUnchanged({ try body(replica.state) }) == nil {
          try transaction { try body($0) }
        }
      })
  }
}

/// The queue as the journal holds it, in one process, with the line that holds each record
/// as it now is, so that a compaction encodes nothing.
///
/// `@unchecked Sendable`: it is only touched inside `Journal.transaction` and
/// `Journal.ifUnchanged`, which hold the journal's lock in this process.
private final class Replica: @unchecked Sendable {
  private(set) var state = QueueState()
  private var lines: [DownloadID: Data] = [:]

  /// Forgets everything, for a journal read from its start.
  func reset() {
    state = QueueState()
    lines = [:]
  }

  /// Applies the lines another process wrote; throws `corrupt`, naming the line, for one
  /// that is no record.
  func apply(_ catchup: Journal.Catchup, path: String) throws {
    for (number, line) in catchup.lines.enumerated() {
      do {
        switch try QueueLine.apply(line, to: &state) {
        case .put(let id): lines[id] = line
        case .removed(let id): lines[id] = nil
        }
      } catch {
        throw StoreFileError.corrupt(
          path: path, reason: "line \(catchup.firstLineNumber + number) is not a download record")
      }
    }
  }

  /// Puts the records of the single-file queue at `legacy`, if there is one, in the state;
  /// whether there was.
  func migrate(_ legacy: URL) throws -> Bool {
    try QueueLine.legacy(legacy, into: &state)
  }

  /// Runs `body` on the state; the lines that say what it put or removed.
  func change(_ body: (inout QueueState) throws -> Void) throws -> [Data] {
    let changed = try state.recordingChanges(body)
    return changed.sorted { $0.rawValue < $1.rawValue }.map { id in
      guard let record = state[id] else {
        lines[id] = nil
        return QueueLineWriter.removal(id)
      }
      let line = QueueLineWriter.line(record)
      lines[id] = line
      return line
    }
  }

  /// A line for each record, in the order they were added.
  func allLines() -> [Data] {
    state.ordered.map { record in
      if let line = lines[record.download.id] { return line }
      let line = QueueLineWriter.line(record)
      lines[record.download.id] = line
      return line
    }
  }
}

/// One line of the journal, as read: a record as it now is, or the ID of one removed
/// (`QueueLineWriter` writes them).
private struct QueueLine: Decodable {
  var record: StoredRecord?
  var removed: DownloadID?

  /// What a line did.
  enum Applied {
    case put(DownloadID)
    case removed(DownloadID)
  }

  @discardableResult
  static func apply(_ line: Data, to state: inout QueueState) throws -> Applied {
    let decoded = try JSONDecoder().decode(QueueLine.self, from: line)
    if let record = decoded.record?.record {
      state.put(record)
      return .put(record.download.id)
    } else if let removed = decoded.removed {
      state.remove(removed)
      return .removed(removed)
    } else {
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "empty line"))
    }
  }

  /// Puts the records of the single-file queue at `url`, if there is one, into `state`;
  /// whether there was.
  static func legacy(_ url: URL?, into state: inout QueueState) throws -> Bool {
    guard let url, let data = try? Data(contentsOf: url) else { return false }
    guard let stored = try? JSONDecoder().decode([String: [StoredRecord]].self, from: data)
    else {
      throw StoreFileError.corrupt(path: url.path, reason: "not a download queue")
    }
    for stored in stored["downloads"] ?? [] { state.put(stored.record) }
    return true
  }
}
