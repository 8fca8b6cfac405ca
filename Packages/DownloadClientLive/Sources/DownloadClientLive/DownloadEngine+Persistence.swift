import DownloadClient
import Foundation

/// The queue's persistence: every change of a record goes to the store at once, and one that
/// cannot be saved is never passed over: the download stops, paused in this process, saying so.
extension DownloadEngine {
  /// Changes the stored record of `id` and keeps the result; throws `.unknownDownload` when
  /// the record is gone. The status is this process's; the rest comes from the store, where
  /// another process may have changed it.
  func change(
    _ id: DownloadID, reserving destination: URL? = nil,
    _ body: (inout DownloadRecord) -> Void = { _ in }
  ) throws {
    let status = try record(id).download.status
    guard
      let record = try DownloadQueue.change(
        id, in: store, status: status, reserving: destination, body)
    else {
      queue?.remove(id)
      throw DownloadError.unknownDownload(id)
    }
    queue?.replace(record)
  }

  func setStatus(_ status: DownloadStatus, of id: DownloadID) throws {
    guard var record = try? record(id) else { throw DownloadError.unknownDownload(id) }
    record.download.status = status
    queue?.replace(record)
    try change(id)
    events.send(.statusChanged(id, status))
  }

  /// Reads what another process left in the record of `id`, and marks it running in this
  /// process. The store hears of the status with the next change (the response head), one
  /// write fewer for each download; meanwhile another process sees it running by its claim.
  /// False when another process finished it since this one last looked (it held the claim
  /// until then): it is done here too, as that process left it.
  func markRunning(_ id: DownloadID) throws -> Bool {
    guard var record = try DownloadQueue.stored(id, in: store) else {
      queue?.remove(id)
      throw DownloadError.unknownDownload(id)
    }
    if record.download.status == .completed, let file = record.download.destination {
      queue?.replace(record)
      events.send(.finished(id, file: file, bytes: record.download.receivedBytes))
      return false
    }
    record.download.status = .running
    queue?.replace(record)
    events.send(.statusChanged(id, .running))
    return true
  }

  /// Runs `write`, a change of the record of `id`; false when the download must stop: its
  /// record is gone, or the queue cannot be saved (then it is paused, saying so).
  func saving(_ id: DownloadID, _ write: () throws -> Void) -> Bool {
    do {
      try write()
      return true
    } catch {
      stopUnsaved(id, error)
      return false
    }
  }

  /// Says why `id` stops after a change of its record failed with `error`: it is gone, or
  /// the queue cannot be saved (then it is paused).
  func stopUnsaved(_ id: DownloadID, _ error: any Error) {
    if case DownloadError.unknownDownload = error {
      events.send(.removed(id))
    } else {
      pauseUnsaved(id, "\(error)")
    }
  }

  /// Removes the part file `part` of `id`, whose bytes are of no use; a file that cannot be
  /// removed is said (an error in the log, which the command line always shows).
  func discardPart(_ part: URL, of id: DownloadID) {
    if let failure = PartFile.remove(part) {
      configuration.log(.error, "\(id): cannot remove \(part.path): \(failure)")
    }
  }

  /// Pauses `id` in this process because its record could not be saved (`reason`): the
  /// stored record stays as it last was, so a later run goes on from the bytes on disk; the
  /// failure says so.
  func pauseUnsaved(_ id: DownloadID, _ reason: String) {
    local[id, default: LocalDownload()].unsaved = true
    if var record = try? record(id) {
      record.download.status = .paused
      queue?.replace(record)
    }
    events.send(
      .failed(id, .file("cannot save the download queue (\(reason)); the download is paused")))
  }

  /// Ends `id` with `error`, saved in its record. When the queue cannot be saved, the
  /// download is paused instead, saying so.
  func fail(_ id: DownloadID, _ error: DownloadError) async {
    do {
      try change(id) { $0.download.status = .failed(reason: "\(error)") }
    } catch DownloadError.unknownDownload {
      // Removed meanwhile: it still ended with `error`.
    } catch let unsaved {
      return pauseUnsaved(id, "\(error); and \(unsaved)")
    }
    events.send(.failed(id, error))
  }
}
