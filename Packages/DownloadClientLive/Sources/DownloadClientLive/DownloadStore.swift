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
  let transaction: @Sendable (_ body: (inout QueueState) throws -> Void) async throws -> Void

  /// Every record, in the order they were added.
  public func records() async throws -> [DownloadRecord] {
    var records: [DownloadRecord] = []
    try await transaction { records = $0.ordered }
    return records
  }
}

extension DownloadStore {
  /// A queue in memory, for one process.
  public static func inMemory() -> DownloadStore {
    let state = Mutex(QueueState())
    return DownloadStore { body in
      try state.withLock { try body(&$0) }
    }
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
    return DownloadStore { body in
      var migrated = false
      try journal.transaction { catchup in
        if catchup.fromStart { replica.state = QueueState() }
        try replica.apply(catchup, path: url.path)
        if catchup.lineCount == 0, let legacy {
          migrated = try QueueLine.legacy(legacy, into: &replica.state)
        }
        let changed = try replica.state.recordingChanges(body)
        let records = replica.state.records.count
        if migrated || catchup.lineCount + changed.count > 2 * records + 1000 {
          return (.replace(try replica.state.ordered.map(QueueLine.encode)), ())
        }
        let lines = try changed.sorted { $0.rawValue < $1.rawValue }.map { id in
          try replica.state[id].map(QueueLine.encode) ?? QueueLine.encodeRemoval(id)
        }
        return (.append(lines), ())
      }
      if migrated, let legacy {
        try? FileManager.default.removeItem(at: legacy)
        try? FileManager.default.removeItem(at: legacy.appendingPathExtension("lock"))
      }
    }
  }
}

/// The queue as the journal holds it, in one process.
///
/// `@unchecked Sendable`: `state` is only touched inside `Journal.transaction`, which holds
/// the journal's lock.
private final class Replica: @unchecked Sendable {
  var state = QueueState()

  /// Applies the lines another process wrote; throws `corrupt`, naming the line, for one
  /// that is no record.
  func apply(_ catchup: Journal.Catchup, path: String) throws {
    for (number, line) in catchup.lines.enumerated() {
      do {
        try QueueLine.apply(line, to: &state)
      } catch {
        throw StoreFileError.corrupt(
          path: path, reason: "line \(catchup.firstLineNumber + number) is not a download record")
      }
    }
  }
}

/// One line of the journal: a record as it now is, or the ID of one removed.
private struct QueueLine: Codable {
  var record: DownloadRecord?
  var removed: DownloadID?

  static func apply(_ line: Data, to state: inout QueueState) throws {
    let decoded = try JSONDecoder().decode(QueueLine.self, from: line)
    if let record = decoded.record {
      state.put(record)
    } else if let removed = decoded.removed {
      state.remove(removed)
    } else {
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "empty line"))
    }
  }

  static func encode(_ record: DownloadRecord) throws -> Data {
    try JSONEncoder().encode(QueueLine(record: record))
  }

  static func encodeRemoval(_ id: DownloadID) throws -> Data {
    try JSONEncoder().encode(QueueLine(removed: id))
  }

  /// Puts the records of the single-file queue at `url`, if there is one, into `state`;
  /// whether there was.
  static func legacy(_ url: URL?, into state: inout QueueState) throws -> Bool {
    guard let url, let data = try? Data(contentsOf: url) else { return false }
    guard let stored = try? JSONDecoder().decode([String: [DownloadRecord]].self, from: data)
    else {
      throw StoreFileError.corrupt(path: url.path, reason: "not a download queue")
    }
    for record in stored["downloads"] ?? [] { state.put(record) }
    return true
  }
}
