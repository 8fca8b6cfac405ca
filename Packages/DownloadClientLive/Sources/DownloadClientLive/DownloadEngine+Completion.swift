import DownloadClient
import Foundation
import HTTPClient

/// The end of a download: the part file checked (length, checksum) and moved into place, and the
/// record marked done; after a crash in between, the move or the record finished.
extension DownloadEngine {
  /// Checks the finished part file and moves it into place.
  func complete(_ id: DownloadID, digest: RunningDigest?) async {
    guard let record = try? record(id), let destination = record.download.destination else {
      return
    }
    let part = PartFile.url(for: destination)
    let (size, identity) = PartFile.status(of: part) ?? (0, nil)
    if let expected = record.download.expectedBytes, size != expected {
      return await fail(id, .lengthMismatch(expected: expected, received: size))
    }
    if let expected = record.download.request.expectedSize, size != expected {
      discardPart(part, of: id)
      return await fail(id, .lengthMismatch(expected: expected, received: size))
    }
    if let expected = record.download.request.expectedChecksum, let digest {
      do {
        let actual = try digest.finish(part, size: size)
        guard actual == expected.hex else {
          // Damaged pieces, when their digests are known, are fetched again.
          if case .mended = await mendPieces(of: id, part: part, size: size) {
            return await complete(id, digest: digest)
          }
          discardPart(part, of: id)
          return await fail(id, .checksumMismatch(expected: expected, actual: actual))
        }
      } catch {
        return await fail(id, .file("cannot read \(part.path): \(error.localizedDescription)"))
      }
    } else {
      switch await mendPieces(of: id, part: part, size: size) {
      case .intact: break
      case .mended: return await complete(id, digest: digest)
      case .failed(let error):
        discardPart(part, of: id)
        return await fail(id, error)
      }
    }
    if PartFile.exists(destination) {
      // With `ifChanged` a download refreshes its own earlier file (a new download never
      // starts over a file that is there), also when the refresh ends in a later run.
      guard configuration.overwrite || configuration.ifChanged || record.placing else {
        return await fail(id, .destinationExists(destination.path))
      }
    }
    if configuration.remoteTime, let lastModified = record.lastModified {
      setTime(of: part, to: lastModified, id: id)
    }
    // A run after a crash between the move and the record knows the file is this download's
    // by the part file's identity in the record; when the record does not name this part
    // file (segments), it is said before the move.
    if identity == nil || identity != record.partFile {
      guard saving(id, { try change(id) { $0.placing = true } }) else { return }
    }
    do {
      try PartFile.place(part, at: destination)
    } catch {
      return await fail(id, .file("\(error)"))
    }
    await finish(id, size: size, file: destination)
  }

  /// Gives `part` the time of the server's `Last-Modified` (`remoteTime`); one it cannot read
  /// or set is said, and the file keeps its own.
  private func setTime(of part: URL, to lastModified: String, id: DownloadID) {
    guard let date = HTTPDate.parse(lastModified) else {
      return configuration.log(.error, "\(id): Last-Modified '\(lastModified)' is no date")
    }
    if let failure = PartFile.setTime(of: part, to: date) {
      configuration.log(.error, "\(id): cannot set the time of \(part.path): \(failure)")
    }
  }

  /// Marks `id` done with its `file` of `size` bytes in place. When the queue cannot be
  /// saved, the download fails saying so; the next run finishes its record.
  func finish(_ id: DownloadID, size: Int64, file: URL) async {
    local[id]?.finished()
    do {
      try change(id) {
        $0.download.status = .completed
        $0.download.receivedBytes = size
        $0.segments = nil
        $0.placing = false
        $0.partFile = nil
      }
    } catch DownloadError.unknownDownload {
      return events.send(.removed(id))
    } catch {
      return events.send(
        .failed(
          id,
          .file(
            "\(file.path) is complete, but the queue could not be saved (\(error)); "
              + "the next run finishes its record")))
    }
    events.send(.finished(id, file: file, bytes: size))
  }

  /// Finishes a download that was being moved into place when its process ended: moves its
  /// complete part file (`placing`), or, when the file is there already with the size (and
  /// checksum) the download had, and the part file's identity or `placing` says it is the
  /// download's, marks it done. False when neither is there: the download goes on.
  func finishPlacing(_ id: DownloadID, digest: RunningDigest?) async -> Bool {
    guard let record = try? record(id), let destination = record.download.destination else {
      return false
    }
    let part = PartFile.url(for: destination)
    if PartFile.exists(part) {
      guard record.placing else { return false }
      await complete(id, digest: digest)
      return true
    }
    guard let (size, identity) = PartFile.status(of: destination),
      record.placing || identity == record.partFile,
      record.download.expectedBytes.map({ $0 == size }) ?? true,
      record.download.request.expectedSize.map({ $0 == size }) ?? true
    else {
      return record.placing && !saving(id, { try change(id) { $0.placing = false } })
    }
    if let expected = record.download.request.expectedChecksum {
      let digest = RunningDigest(expected.algorithm)
      guard (try? digest.finish(destination, size: size)) == expected.hex else {
        return record.placing && !saving(id, { try change(id) { $0.placing = false } })
      }
    }
    configuration.log(.info, "\(id): \(destination.path) was moved into place by a run that ended")
    await finish(id, size: size, file: destination)
    return true
  }
}
