import DownloadClient
import Foundation
import HTTPClient
import Synchronization

/// One attempt over several connections, when the download is in segments or can be
/// (`segments` above 1, nothing on disk yet, a server that takes ranges and names a
/// validator): a one-byte probe plans the segments, and `SegmentedTransfer` fetches them.
struct SegmentedAttempt<C: Clock<Duration>> {
  let run: DownloadRun<C>
  let deadline: C.Instant

  var id: DownloadID { run.id }

  /// What a one-byte range request found out about a file.
  enum Probe {
    /// The file is now planned in segments.
    case segmented
    /// The server does not take ranges (or the file is small): one connection.
    case single
    /// The attempt ends here.
    case ended(AttemptState.Outcome)
  }

  /// The attempt's outcome; nil when the download goes over one connection.
  func perform(in engine: isolated DownloadEngine<C>) async -> AttemptState.Outcome? {
    guard var record = run.record(in: engine), let destination = record.download.destination
    else {
      return nil
    }
    let configuration = engine.configuration
    let part = PartFile.url(for: destination)
    if record.segments == nil {
      guard connections(of: record, in: engine) > 1, !run.unsplittable,
        PartFile.size(of: part) == 0
      else {
        return nil
      }
      switch await probe(record, in: engine) {
      case .single:
        run.unsplittable = true
        return nil
      case .ended(let outcome):
        return outcome
      case .segmented:
        guard let planned = run.record(in: engine) else { return nil }
        record = planned
      }
    }
    guard let segments = record.segments, let total = record.download.expectedBytes else {
      return nil
    }
    if let refusal = run.partRefusal(part, of: record, in: engine) {
      return .failed(.file(refusal), retryAfter: nil)
    }
    let handle: FileHandle
    do {
      let opened = try PartFile.open(part)
      handle = opened.handle
      try PartFile.keep(opened.size, of: opened)
      if opened.identity != record.partFile {
        guard
          run.saving({ try run.change(in: engine) { $0.partFile = opened.identity } }, in: engine)
        else {
          try? handle.close()
          return .stopped
        }
      }
    } catch {
      return .failed(.file("\(error)"), retryAfter: nil)
    }
    defer { try? handle.close() }
    let maker = run.requestMaker(for: record, in: engine)
    let mirrors = run.mirrors
    var requests: [Int: HTTPRequest] = [:]
    for (index, segment) in segments.enumerated() where !segment.isDone {
      requests[index] = maker.request(for: segment, url: mirrors?.url(for: index))
    }
    let received = segments.received
    configuration.log(
      .debug,
      "\(id): GET \(record.download.request.url) in \(requests.count) segments"
        + (mirrors.map { " from \($0.count) mirrors" } ?? "")
        + ", \(received) of \(total) bytes on disk")
    let clock = engine.clock
    let started = clock.now
    let transfer = SegmentedTransfer(
      http: engine.http, handle: handle, segments: segments, total: total,
      now: { started.duration(to: clock.now) },
      deadline: (started.duration(to: deadline), run.limits(of: record, in: engine).timedOut),
      progress: run.progress(to: engine.events),
      persist: { [engine, id] segments in await engine.save(segments, of: id) },
      mirrors: mirrors.map { mirrors in
        SegmentedTransfer.MirrorUse(mirrors: mirrors, maker: maker) { [id] line in
          configuration.log(.error, "\(id): \(line)")
        }
      })
    let (outcome, _) = await transfer.run(requests)
    if case .failed(.notContinued, _) = outcome {
      // The file changed: what is on disk belongs to the old one.
      run.discardPart(part, in: engine)
      guard run.saving({ try run.change(in: engine) { $0.segments = nil } }, in: engine) else {
        return .stopped
      }
    }
    return outcome
  }

  /// How many connections `record`'s download is fetched over: its own number, else the
  /// configuration's.
  private func connections(of record: DownloadRecord, in engine: isolated DownloadEngine<C>)
    -> Int
  {
    record.download.request.limits?.connections ?? engine.configuration.segments
  }

  /// Asks for the file's first byte: a 206 with the whole size and a validator (`ETag` or
  /// `Last-Modified`) plans the download in segments.
  private func probe(_ record: DownloadRecord, in engine: isolated DownloadEngine<C>) async
    -> Probe
  {
    var request = run.requestMaker(for: record, in: engine).request(from: 0)
    request.rangeStart = 0
    request.rangeEnd = 0
    let answer = Mutex<HTTPResponseHead?>(nil)
    var failure: (any Error)?
    do {
      try await engine.http.stream(
        request,
        HTTPReceiver(
          head: { head in
            answer.withLock { $0 = head }
            return false
          },
          body: { _ in false }))
    } catch {
      failure = error
    }
    guard let head = answer.withLock({ $0 }) else {
      let error = failure.map(DownloadError.from) ?? .transport("no answer")
      return .ended(.failed(error, retryAfter: nil))
    }
    let configuration = engine.configuration
    let decision = ResponseDecision.decide(
      head, offset: 0, accepting: configuration.acceptedStatusCodes,
      maxSize: run.limits(of: record, in: engine).maxSize, conditional: run.revalidating)
    switch decision {
    case .unchanged:
      return .ended(.unchanged)
    case .fail(let error, let retryAfter):
      return .ended(.failed(error, retryAfter: retryAfter))
    case .restart:
      return .single
    case .write(_, let total):
      let entityTag = head.headers["ETag"]
      let lastModified = head.headers["Last-Modified"]
      // Another size than the download must have is said by the single connection's attempt.
      guard head.status == 206, let total, let validator = head.rangeValidator,
        record.download.request.expectedSize.map({ $0 == total }) ?? true
      else {
        return .single
      }
      let segments = Segment.plan(total: total, count: connections(of: record, in: engine))
      guard segments.count > 1 else { return .single }
      run.mirrors?.learn(validator, of: request.url)
      let validators = run.mirrors?.validators
      let saved = run.saving(
        {
          try run.change(in: engine) { record in
            record.mirrorValidators = validators
            record.entityTag = entityTag
            record.lastModified = lastModified
            record.download.expectedBytes = total
            record.download.receivedBytes = 0
            record.segments = segments
          }
        }, in: engine)
      return saved ? .segmented : .ended(.stopped)
    }
  }

  /// Keeps how far the segments of `run` got, never less than what is stored; false when that
  /// cannot be saved (the download is paused, saying so) or the download is gone.
  static func save(
    _ segments: [Segment], of run: DownloadRun<C>, in engine: isolated DownloadEngine<C>
  ) -> Bool {
    // Paused by an earlier save that failed: said once. (One paused by hand saves on.)
    guard !run.unsaved else { return false }
    let validators = run.mirrors?.validators
    do {
      try run.change(in: engine) { record in
        guard let stored = record.segments, stored.count == segments.count else { return }
        if let validators { record.mirrorValidators = validators }
        record.segments = zip(stored, segments).map { stored, new in
          var segment = stored
          segment.received = max(stored.received, new.received)
          return segment
        }
      }
      return true
    } catch DownloadError.unknownDownload {
      return false  // Removed meanwhile: whoever removed it said so.
    } catch {
      run.pauseUnsaved("\(error)", in: engine)
      return false
    }
  }
}
