import DownloadClient
import Foundation
import HTTPClient

/// One attempt of a download over one connection: the request for the rest of the file, the
/// response head and its decision, and the body written to the part file.
struct SingleAttempt<C: Clock<Duration>> {
  let run: DownloadRun<C>
  let deadline: C.Instant
  let digest: RunningDigest?

  var id: DownloadID { run.id }

  /// One request for the rest of the file. The resource deadline is checked on every piece
  /// received (a transfer that stalls completely ends at the idle timeout first).
  func perform(in engine: isolated DownloadEngine<C>) async -> AttemptState.Outcome {
    guard let record = run.record(in: engine), let destination = record.download.destination
    else {
      return .failed(.unknownDownload(id), retryAfter: nil)
    }
    let part = PartFile.url(for: destination)
    let onDisk = PartFile.size(of: part)
    let maker = run.requestMaker(for: record, in: engine)
    // Without a validator nothing proves the bytes on disk belong to the file on the server;
    // a mirror not asked before must answer with the download's size.
    let provable =
      maker.validator(for: maker.currentURL) != nil
      || (run.mirrors != nil && record.download.expectedBytes != nil)
    let offset = provable ? onDisk : 0
    if offset > 0, offset == record.download.expectedBytes { return .completed }

    let request = maker.request(from: offset)
    engine.configuration.log(
      .debug, "\(id): GET \(record.download.request.url) from byte \(offset)")
    let clock = engine.clock
    let started = clock.now
    let limits = run.limits(of: record, in: engine)
    let state = AttemptState(
      maxSize: limits.maxSize, now: { started.duration(to: clock.now) },
      deadline: (started.duration(to: deadline), limits.timedOut), digest: digest,
      progress: run.progress(to: engine.events)
    )
    defer { state.close() }
    let outcome: AttemptState.Outcome
    do {
      try await engine.http.stream(
        request,
        HTTPReceiver(
          head: { [engine, id, deadline, digest] head in
            await engine.accept(
              head, of: id, from: request.url, offset: offset, state: state, deadline: deadline,
              digest: digest)
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
    _ head: HTTPResponseHead, from url: URL, offset: Int64, state: AttemptState,
    in engine: isolated DownloadEngine<C>
  ) async -> Bool {
    guard let record = run.record(in: engine), var destination = record.download.destination
    else {
      return false
    }
    let configuration = engine.configuration
    let decision = ResponseDecision.decide(
      head, offset: offset, accepting: configuration.acceptedStatusCodes,
      maxSize: run.limits(of: record, in: engine).maxSize,
      conditional: run.revalidating && offset == 0)
    let start: Int64
    let total: Int64?
    switch decision {
    case .fail(let error, let retryAfter):
      state.end(.failed(error, retryAfter: retryAfter))
      return false
    case .restart(let reason):
      run.discardPart(PartFile.url(for: destination), in: engine)
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
    if let mirrors = run.mirrors {
      // A mirror that serves a file of another size is never mixed in: while another is
      // left it is dropped; the last one is believed, as a single URL is, from the start.
      if let known = record.download.expectedBytes, let total, total != known,
        mirrors.count > 1 || start > 0
      {
        let reason = "\(url.redactingPassword) serves \(total) bytes, not \(known)"
        if mirrors.count == 1 { run.discardPart(PartFile.url(for: destination), in: engine) }
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
        guard let free = try engine.freeName(for: given, of: id) else {
          throw DownloadError.file("\(given.path) exists")
        }
        named = free
        try run.change(reserving: named, in: engine) { $0.download.destination = named }
      } catch DownloadError.file(let reason) {
        configuration.log(.info, "\(id): \(reason); keeping \(destination.lastPathComponent)")
      } catch {
        run.stopUnsaved(error, in: engine)
        state.end(.stopped)
        return false
      }
      if run.record(in: engine)?.download.destination == named {
        run.discardPart(PartFile.url(for: destination), in: engine)
        destination = named
      }
    }
    let part = PartFile.url(for: destination)
    if let refusal = run.partRefusal(part, of: record, in: engine) {
      state.end(.failed(.file(refusal), retryAfter: nil))
      return false
    }
    do {
      // Opened before the head is saved, so that the record names the part file; cut after,
      // so that a failed save loses no byte.
      let opened = try PartFile.open(part)
      let validators = run.mirrors?.validators
      let saved = run.saving(
        {
          try run.change(in: engine) { [destination] record in
            record.entityTag = head.headers["ETag"]
            record.lastModified = head.headers["Last-Modified"]
            record.download.expectedBytes = total
            record.download.receivedBytes = start
            record.download.destination = destination
            record.partFile = opened.identity
            record.mirrorValidators = validators
          }
        }, in: engine)
      guard saved else {
        state.end(.stopped)
        return false
      }
      try PartFile.keep(start, of: opened)
      digest?.start(at: start, of: part)
      state.open(opened.handle, part: part, received: start, expected: total)
      return true
    } catch {
      let reason = error is DownloadFileError ? "\(error)" : "cannot write \(part.path): \(error)"
      state.end(.failed(.file(reason), retryAfter: nil))
      return false
    }
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
