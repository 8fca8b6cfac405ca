import DownloadClient
import Foundation
import HTTPClient

/// The records' changes, which go to the store at once, and the transport's callbacks, which
/// reach a run through the scheduler's table.
extension DownloadEngine {
  /// Changes the stored record of `id` and keeps the result; throws `.unknownDownload` when
  /// the record is gone. The status is this process's (`status`, else the one it has); the
  /// rest comes from the store, where another process may have changed it, and finished it.
  func change(
    _ id: DownloadID, to status: DownloadStatus? = nil, reserving destination: URL? = nil,
    _ body: (inout DownloadRecord) -> Void = { _ in }
  ) throws {
    let known = try record(id).download.status
    guard
      let record = try DownloadQueue.change(
        id, in: store, status: status ?? known, knownAs: known, reserving: destination, body)
    else {
      queue?.remove(id)
      throw DownloadError.unknownDownload(id)
    }
    queue?.replace(record)
  }

  /// Gives `ids` `status`, in one change of the store; those whose records are gone are left.
  func setStatus(_ status: DownloadStatus, of ids: [DownloadID]) throws {
    let known = { (id: DownloadID) in try? self.record(id).download.status }
    for record in try DownloadQueue.change(ids, in: store, status: status, knownAs: known) {
      queue?.replace(record)
      events.send(.statusChanged(record.download.id, record.download.status))
    }
  }

  func setStatus(_ status: DownloadStatus, of id: DownloadID) throws {
    do {
      try change(id, to: status)
    } catch DownloadError.unknownDownload {
      throw DownloadError.unknownDownload(id)
    } catch {
      // This process goes by the status it decided, which the store could not be told.
      var record = try record(id)
      record.download.status = status
      queue?.replace(record)
      throw error
    }
    events.send(.statusChanged(id, try record(id).download.status))
  }

  /// Marks `id` paused in this process only: its stored record is another process's to
  /// change, or could not be saved.
  func pausedHere(_ id: DownloadID) {
    guard var record = try? record(id) else { return }
    record.download.status = .paused
    queue?.replace(record)
  }

  /// Removes the part file `part` of `id`, whose bytes are of no use; a file that cannot be
  /// removed is said (an error in the log, which the command line always shows).
  func discardPart(_ part: URL, of id: DownloadID) {
    if let failure = PartFile.remove(part) {
      configuration.log(.error, "\(id): cannot remove \(part.path): \(failure)")
    }
  }

  /// A response head for the single-connection attempt of `id` (`SingleAttempt.accept`);
  /// false when the download is gone.
  func accept(
    _ head: HTTPResponseHead, of id: DownloadID, from url: URL, offset: Int64,
    state: AttemptState, deadline: C.Instant, digest: RunningDigest?
  ) async -> Bool {
    guard let run = runs[id] else { return false }
    return await SingleAttempt(run: run, deadline: deadline, digest: digest).accept(
      head, from: url, offset: offset, state: state, in: self)
  }

  /// How far the segments of `id` got (`SegmentedAttempt.save`); false when the download is
  /// gone or that cannot be saved.
  func save(_ segments: [Segment], of id: DownloadID) -> Bool {
    guard let run = runs[id] else { return false }
    return SegmentedAttempt.save(segments, of: run, in: self)
  }
}
