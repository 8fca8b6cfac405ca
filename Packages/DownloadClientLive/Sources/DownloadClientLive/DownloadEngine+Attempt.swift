import DownloadClient
import Foundation
import HTTPClient

/// One attempt of a download over one connection: the request, the response head and its
/// decision, and the body written to the part file.
extension DownloadEngine {
  /// The maker of `record`'s requests, with the secrets given in this process.
  func requestMaker(for record: DownloadRecord) -> RequestMaker {
    let id = record.download.id
    return RequestMaker(
      given: local[id]?.secrets ?? record.download.request, record: record,
      configuration: configuration, rateLimit: limits(of: record).rateLimit,
      revalidating: local[id]?.revalidating == true, mirrors: local[id]?.mirrors)
  }

  /// One request for the rest of the file. The resource deadline is checked on every piece
  /// received (a transfer that stalls completely ends at the idle timeout first).
  func attempt(_ id: DownloadID, deadline: C.Instant, digest: RunningDigest?) async
    -> AttemptState.Outcome
  {
    guard let record = try? record(id), let destination = record.download.destination else {
      return .failed(.unknownDownload(id), retryAfter: nil)
    }
    if let outcome = await segmentedAttempt(id, deadline: deadline) { return outcome }
    let part = PartFile.url(for: destination)
    let onDisk = PartFile.size(of: part)
    let maker = requestMaker(for: record)
    // Without a validator nothing proves the bytes on disk belong to the file on the server;
    // a mirror not asked before must answer with the download's size.
    let provable =
      maker.validator(for: maker.currentURL) != nil
      || (local[id]?.mirrors != nil && record.download.expectedBytes != nil)
    let offset = provable ? onDisk : 0
    if offset > 0, offset == record.download.expectedBytes { return .completed }

    let request = maker.request(from: offset)
    configuration.log(.debug, "\(id): GET \(record.download.request.url) from byte \(offset)")
    let started = clock.now
    let limits = limits(of: record)
    let state = AttemptState(
      maxSize: limits.maxSize, now: { [clock] in started.duration(to: clock.now) },
      deadline: (started.duration(to: deadline), limits.timedOut), digest: digest,
      progress: { [events] progress in events.send(.progress(id, progress)) })
    defer { state.close() }
    let outcome: AttemptState.Outcome
    do {
      try await http.stream(
        request,
        HTTPReceiver(
          head: { head in
            await self.accept(
              head, for: id, from: request.url, offset: offset, state: state, digest: digest)
          },
          body: { data in state.write(data) }))
      outcome = state.outcome ?? .completed
    } catch is CancellationError {
      outcome = .failed(.transport("cancelled"), retryAfter: nil)
    } catch {
      outcome = state.outcome ?? .failed(DownloadError.from(error), retryAfter: nil)
    }
    return outcome
  }

  /// Acts on a response head as `ResponseDecision` says: fail, restart, or open the part
  /// file to write the body from where it starts.
  func accept(
    _ head: HTTPResponseHead, for id: DownloadID, from url: URL, offset: Int64,
    state: AttemptState, digest: RunningDigest?
  ) async -> Bool {
    guard let record = try? record(id), var destination = record.download.destination else {
      return false
    }
    let decision = ResponseDecision.decide(
      head, offset: offset, accepting: configuration.acceptedStatusCodes,
      maxSize: limits(of: record).maxSize,
      conditional: local[id]?.revalidating == true && offset == 0)
    let start: Int64
    let total: Int64?
    switch decision {
    case .fail(let error, let retryAfter):
      state.end(.failed(error, retryAfter: retryAfter))
      return false
    case .restart(let reason):
      discardPart(PartFile.url(for: destination), of: id)
      state.end(.failed(.notContinued(reason), retryAfter: nil))
      return false
    case .unchanged:
      state.end(.unchanged)
      return false
    case .write(let from, let size):
      (start, total) = (from, size)
    }
    // A size the download must have is a checksum: a URL that serves another fails (a mirror
    // is dropped for the next one).
    if let expected = record.download.request.expectedSize, let total, total != expected {
      let reason = "\(url.redactingPassword) serves \(total) bytes, not the \(expected) expected"
      state.end(.failed(.unrecoverable(reason), retryAfter: nil))
      return false
    }
    if let mirrors = local[id]?.mirrors {
      // A mirror that serves a file of another size is never mixed in: while another is
      // left it is dropped; the last one is believed, as a single URL is, from the start.
      if let known = record.download.expectedBytes, let total, total != known,
        mirrors.count > 1 || start > 0
      {
        let reason = "\(url.redactingPassword) serves \(total) bytes, not \(known)"
        if mirrors.count == 1 { discardPart(PartFile.url(for: destination), of: id) }
        state.end(.failed(.notContinued(reason), retryAfter: nil))
        return false
      }
      mirrors.learn(head.rangeValidator, of: url)
    }
    if offset > 0, start == 0 {
      configuration.log(
        .info, "\(id): the server sent the whole file (HTTP \(head.status)); starting over")
    }
    if start == 0, let name = serverFileName(head, for: record) {
      let given = destination.deletingLastPathComponent().appendingPathComponent(
        name, isDirectory: false)
      var named = given
      // The name (or with auto-renaming a free variant) is reserved for this download, unless
      // another one has it already or a file of that name is there (and may not be
      // overwritten): then it keeps its own.
      do {
        guard let free = try freeName(for: given, of: id) else {
          throw DownloadError.file("\(given.path) exists")
        }
        named = free
        try change(id, reserving: named) { $0.download.destination = named }
      } catch DownloadError.file(let reason) {
        configuration.log(.info, "\(id): \(reason); keeping \(destination.lastPathComponent)")
      } catch {
        stopUnsaved(id, error)
        state.end(.stopped)
        return false
      }
      if (try? self.record(id))?.download.destination == named {
        discardPart(PartFile.url(for: destination), of: id)
        destination = named
      }
    }
    let part = PartFile.url(for: destination)
    if let refusal = partRefusal(part, of: record) {
      state.end(.failed(.file(refusal), retryAfter: nil))
      return false
    }
    do {
      // Opened before the head is saved, so that the record names the part file; cut after,
      // so that a failed save loses no byte.
      let (handle, identity) = try PartFile.open(part)
      let saved = saving(id) {
        try change(id) { [destination] record in
          record.entityTag = head.headers["ETag"]
          record.lastModified = head.headers["Last-Modified"]
          record.download.expectedBytes = total
          record.download.receivedBytes = start
          record.download.destination = destination
          record.partFile = identity
          record.mirrorValidators = self.local[id]?.mirrors?.validators
        }
      }
      guard saved else {
        state.end(.stopped)
        return false
      }
      try PartFile.keep(start, of: handle)
      digest?.start(at: start, of: part)
      state.open(handle, part: part, received: start, expected: total)
      return true
    } catch {
      let reason = error is DownloadFileError ? "\(error)" : "cannot write \(part.path): \(error)"
      state.end(.failed(.file(reason), retryAfter: nil))
      return false
    }
  }

  /// Why `record`'s download may not write `part`: a folder on the way is a link
  /// (`PartFile.linkedFolder`), or the file there is not its own (`PartFile.refusal`).
  func partRefusal(_ part: URL, of record: DownloadRecord) -> String? {
    let folder = record.download.request.folder ?? configuration.outputDirectory
    if let linked = PartFile.linkedFolder(of: part, below: folder) { return linked }
    // Queues written before segments recorded their part file have none: theirs is taken.
    if record.segments != nil && record.partFile == nil { return nil }
    return PartFile.refusal(of: part, recorded: record.partFile)
  }

  /// The sanitised name from the response's `Content-Disposition`, when the download has no
  /// explicit destination and the name differs from the one it has.
  private func serverFileName(_ head: HTTPResponseHead, for record: DownloadRecord) -> String? {
    guard record.download.request.destination == nil,
      let name = head.headers["Content-Disposition"].flatMap(FileName.fromContentDisposition),
      name != record.download.destination?.lastPathComponent, !FileName.isPartFileName(name)
    else { return nil }
    return name
  }
}

extension DownloadError {
  /// The download error for what the HTTP client threw.
  static func from(_ error: any Error) -> DownloadError {
    switch error {
    case let error as DownloadError:
      return error
    case HTTPError.idleTimeout(let seconds):
      return .idleTimeout(seconds: seconds)
    case HTTPError.status(let status, _, _):
      return .httpStatus(status)
    case HTTPError.tooSlow(let speed):
      return .tooSlow(bytesPerSecond: speed.bytesPerSecond, seconds: speed.seconds)
    case let error as HTTPError:
      return error.isRetryable ? .transport(error.description) : .unrecoverable(error.description)
    default:
      return .transport(String(describing: error))
    }
  }
}
