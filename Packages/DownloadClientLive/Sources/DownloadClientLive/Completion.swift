import DownloadClient
import Foundation
import HTTPClient

/// The end of a download: the part file checked (length, checksum, pieces) and moved into
/// place, and the record marked done; after a crash in between, the move or the record
/// finished.
struct Completion<C: Clock<Duration>> {
  let run: DownloadRun<C>
  /// The digest computed while the file was written, when the download has a checksum.
  let digest: RunningDigest?

  var id: DownloadID { run.id }

  /// Checks the finished part file and moves it into place.
  func complete(in engine: isolated DownloadEngine<C>) async {
    guard let record = run.record(in: engine), let destination = record.download.destination
    else {
      return
    }
    let configuration = engine.configuration
    let part = PartFile.url(for: destination)
    let (size, identity) = PartFile.status(of: part) ?? (0, nil)
    if let expected = record.download.expectedBytes, size != expected {
      return await run.fail(.lengthMismatch(expected: expected, received: size), in: engine)
    }
    if let expected = record.download.request.expectedSize, size != expected {
      run.discardPart(part, in: engine)
      return await run.fail(.lengthMismatch(expected: expected, received: size), in: engine)
    }
    let mending = PieceMending(run: run)
    if let expected = record.download.request.expectedChecksum, let digest {
      do {
        let actual = try digest.finish(part, size: size)
        guard actual == expected.hex else {
          // Damaged pieces, when their digests are known, are fetched again.
          if case .mended = await mending.mend(part, size: size, in: engine) {
            return await complete(in: engine)
          }
          // Kept, as aria2c keeps them: to look into, and for a retry to check again.
          configuration.log(
            .error,
            "\(id): the bytes are kept in \(part.path) (fetcher downloads resume \(id) checks "
              + "them again; fetcher downloads cancel \(id) deletes them)")
          return await run.fail(
            .checksumMismatch(expected: expected, actual: actual), in: engine)
        }
      } catch {
        return await run.fail(
          .file("cannot read \(part.path): \(error.localizedDescription)"), in: engine)
      }
    } else {
      switch await mending.mend(part, size: size, in: engine) {
      case .intact: break
      case .mended: return await complete(in: engine)
      case .failed(let error):
        run.discardPart(part, in: engine)
        return await run.fail(error, in: engine)
      }
    }
    if PartFile.exists(destination) {
      // With `ifChanged` a download refreshes its own earlier file (a new download never
      // starts over a file that is there), also when the refresh ends in a later run.
      guard configuration.overwrite || configuration.ifChanged || record.placing else {
        return await run.fail(.destinationExists(destination.path), in: engine)
      }
    }
    if configuration.remoteTime, let lastModified = record.lastModified {
      setTime(of: part, to: lastModified, log: configuration.log)
    }
    // A run after a crash between the move and the record knows the file is this download's
    // by the part file's identity in the record; when the record does not name this part
    // file (segments), it is said before the move.
    if identity == nil || identity != record.partFile {
      guard run.saving({ try run.change(in: engine) { $0.placing = true } }, in: engine) else {
        return
      }
    }
    do {
      try PartFile.place(part, at: destination)
    } catch {
      return await run.fail(.file("\(error)"), in: engine)
    }
    await finish(size: size, file: destination, in: engine)
  }

  /// Gives `part` the time of the server's `Last-Modified` (`remoteTime`); one it cannot read
  /// or set is said, and the file keeps its own.
  private func setTime(
    of part: URL, to lastModified: String, log: LogSink
  ) {
    guard let date = HTTPDate.parse(lastModified) else {
      return log(.error, "\(id): Last-Modified '\(lastModified)' is no date")
    }
    if let failure = PartFile.setTime(of: part, to: date) {
      log(.error, "\(id): cannot set the time of \(part.path): \(failure)")
    }
  }

  /// Marks the download done with its `file` of `size` bytes in place. When the queue cannot
  /// be saved, the download fails saying so; the next run finishes its record.
  private func finish(size: Int64, file: URL, in engine: isolated DownloadEngine<C>) async {
    run.finished()
    do {
      try run.change(in: engine) {
        $0.download.status = .completed
        $0.download.receivedBytes = size
        $0.segments = nil
        $0.placing = false
        $0.partFile = nil
      }
    } catch DownloadError.unknownDownload {
      return engine.events.send(.removed(id))
    } catch {
      return engine.events.send(
        .failed(
          id,
          .file(
            "\(file.path) is complete, but the queue could not be saved (\(error)); "
              + "the next run finishes its record")))
    }
    engine.events.send(.finished(id, file: file, bytes: size))
  }

  /// Finishes a download that was being moved into place when its process ended: moves its
  /// complete part file (`placing`), or, when the file is there already with the size (and
  /// checksum) the download had, and the part file's identity or `placing` says it is the
  /// download's, marks it done. False when neither is there: the download goes on.
  func finishPlacing(in engine: isolated DownloadEngine<C>) async -> Bool {
    guard let record = run.record(in: engine), let destination = record.download.destination
    else {
      return false
    }
    let part = PartFile.url(for: destination)
    /// Whether the download must stop: `placing` was set but the file is not the one placed,
    /// and that could not be saved.
    func placingUndone() -> Bool {
      record.placing
        && !run.saving({ try run.change(in: engine) { $0.placing = false } }, in: engine)
    }
    if PartFile.exists(part) {
      guard record.placing else { return false }
      await complete(in: engine)
      return true
    }
    guard let (size, identity) = PartFile.status(of: destination),
      record.placing || identity == record.partFile,
      record.download.expectedBytes.map({ $0 == size }) ?? true,
      record.download.request.expectedSize.map({ $0 == size }) ?? true
    else {
      return placingUndone()
    }
    if let expected = record.download.request.expectedChecksum {
      let digest = RunningDigest(expected.algorithm)
      guard (try? digest.finish(destination, size: size)) == expected.hex else {
        return placingUndone()
      }
    }
    engine.configuration.log(
      .info, "\(id): \(destination.path) was moved into place by a run that ended")
    await finish(size: size, file: destination, in: engine)
    return true
  }
}
