import DownloadClient
import Foundation

/// A run's changes of its record: each goes to the store at once, and one that cannot be saved
/// is never passed over: the download stops, paused in this process, saying so.
extension DownloadRun {
  /// Changes the stored record (`DownloadEngine.change`).
  func change(
    reserving destination: URL? = nil, in engine: isolated DownloadEngine<C>,
    _ body: (inout DownloadRecord) -> Void = { _ in }
  ) throws {
    try engine.change(id, reserving: destination, body)
  }

  /// Takes what `request`, given again for the download of `existing`, says anew: its secrets
  /// and piece digests, and over those kept, its checksum, size, limits and mirrors.
  func take(
    _ request: DownloadRequest, over existing: DownloadRecord,
    in engine: isolated DownloadEngine<C>
  ) throws {
    if let pieces = request.pieceChecksums { pieceChecksums = pieces }
    if request.hasSecrets {
      secrets = request
      if !existing.needsSecrets { try change(in: engine) { $0.needsSecrets = true } }
    }
    if let checksum = request.expectedChecksum {
      try change(in: engine) { $0.download.request.expectedChecksum = checksum }
    }
    if let size = request.expectedSize {
      try change(in: engine) { $0.download.request.expectedSize = size }
    }
    if let limits = request.limits, limits != existing.download.request.limits {
      try change(in: engine) { $0.download.request.limits = limits }
    }
    if !request.mirrors.isEmpty, request.redacted.mirrors != existing.download.request.mirrors {
      try change(in: engine) { $0.download.request.mirrors = request.redacted.mirrors }
    }
  }

  /// Reads what another process left in the record, and marks it running in this process.
  /// The store hears of the status with the next change (the response head), one write fewer
  /// for each download; meanwhile another process sees it running by its claim. False when
  /// another process finished it since this one last looked (it held the claim until then):
  /// it is done here too, as that process left it.
  func markRunning(in engine: isolated DownloadEngine<C>) throws -> Bool {
    guard var record = try DownloadQueue.stored(id, in: engine.store) else {
      engine.queue?.remove(id)
      throw DownloadError.unknownDownload(id)
    }
    if record.download.status == .completed, let file = record.download.destination {
      engine.queue?.replace(record)
      engine.events.send(.finished(id, file: file, bytes: record.download.receivedBytes))
      return false
    }
    record.download.status = .running
    engine.queue?.replace(record)
    engine.events.send(.statusChanged(id, .running))
    return true
  }

  /// Runs `write`, a change of the record; false when the download must stop: its record is
  /// gone, or the queue cannot be saved (then it is paused, saying so).
  func saving(_ write: () throws -> Void, in engine: isolated DownloadEngine<C>) -> Bool {
    do {
      try write()
      return true
    } catch {
      stopUnsaved(error, in: engine)
      return false
    }
  }

  /// Says why the download stops after a change of its record failed with `error`: it is
  /// gone, or the queue cannot be saved (then it is paused).
  func stopUnsaved(_ error: any Error, in engine: isolated DownloadEngine<C>) {
    if case DownloadError.unknownDownload = error {
      engine.events.send(.removed(id))
    } else {
      pauseUnsaved("\(error)", in: engine)
    }
  }

  /// Pauses the download in this process because its record could not be saved (`reason`):
  /// the stored record stays as it last was, so a later run goes on from the bytes on disk;
  /// the failure says so.
  func pauseUnsaved(_ reason: String, in engine: isolated DownloadEngine<C>) {
    unsaved = true
    engine.pausedHere(id)
    engine.events.send(
      .failed(id, .file("cannot save the download queue (\(reason)); the download is paused")))
  }

  /// Ends the download with `error`, saved in its record. When the queue cannot be saved, the
  /// download is paused instead, saying so.
  func fail(_ error: DownloadError, in engine: isolated DownloadEngine<C>) async {
    do {
      try change(in: engine) { record in
        record.download.status = .failed(reason: "\(error)")
        record.failure = error
      }
    } catch DownloadError.unknownDownload {
      // Removed meanwhile: it still ended with `error`.
    } catch let unsaved {
      return pauseUnsaved("\(error); and \(unsaved)", in: engine)
    }
    engine.events.send(.failed(id, error))
  }
}
