import DownloadClient
import Foundation
import HTTPClient
import Synchronization

extension DownloadEngine {
  /// What a one-byte range request found out about a file.
  enum Probe {
    /// The file is now planned in segments.
    case segmented
    /// The server does not take ranges (or the file is small): one connection.
    case single
    /// The attempt ends here.
    case ended(AttemptState.Outcome)
  }

  /// One attempt over several connections, when the download is in segments or can be
  /// (`segments` above 1, nothing on disk yet, a server that takes ranges and names a
  /// validator); nil when it goes over one connection.
  func segmentedAttempt(_ id: DownloadID, deadline: C.Instant) async -> AttemptState.Outcome? {
    guard var record = try? record(id), let destination = record.download.destination else {
      return nil
    }
    let part = PartFile.url(for: destination)
    if record.segments == nil {
      guard configuration.segments > 1, local[id]?.unsplittable != true,
        PartFile.size(of: part) == 0
      else { return nil }
      switch await probe(id, record) {
      case .single:
        local[id, default: LocalDownload()].unsplittable = true
        return nil
      case .ended(let outcome):
        return outcome
      case .segmented:
        guard let planned = try? self.record(id) else { return nil }
        record = planned
      }
    }
    guard let segments = record.segments, let total = record.download.expectedBytes else {
      return nil
    }
    if let refusal = partRefusal(part, of: record) {
      return .failed(.file(refusal), retryAfter: nil)
    }
    let handle: FileHandle
    do {
      let identity: FileIdentity
      (handle, identity) = try PartFile.open(part)
      try PartFile.keep(PartFile.size(of: part), of: handle)
      if identity != record.partFile {
        guard saving(id, { try change(id) { $0.partFile = identity } }) else {
          try? handle.close()
          return .stopped
        }
      }
    } catch {
      return .failed(.file("\(error)"), retryAfter: nil)
    }
    defer { try? handle.close() }
    let maker = requestMaker(for: record)
    var requests: [Int: HTTPRequest] = [:]
    for (index, segment) in segments.enumerated() where !segment.isDone {
      requests[index] = maker.request(for: segment, url: local[id]?.mirrors?.url(for: index))
    }
    let received = segments.received
    configuration.log(
      .debug,
      "\(id): GET \(record.download.request.url) in \(requests.count) segments"
        + (local[id]?.mirrors.map { " from \($0.count) mirrors" } ?? "")
        + ", \(received) of \(total) bytes on disk")
    let started = clock.now
    let transfer = SegmentedTransfer(
      http: http, handle: handle, segments: segments, total: total,
      now: { [clock] in started.duration(to: clock.now) },
      deadline: (started.duration(to: deadline), limits(of: record).timedOut),
      progress: { [events] progress in events.send(.progress(id, progress)) },
      persist: { segments in await self.save(segments, of: id) },
      mirrors: local[id]?.mirrors.map { mirrors in
        SegmentedTransfer.MirrorUse(mirrors: mirrors, maker: maker) { [configuration] line in
          configuration.log(.error, "\(id): \(line)")
        }
      })
    let (outcome, _) = await transfer.run(requests)
    if case .failed(.notContinued, _) = outcome {
      // The file changed: what is on disk belongs to the old one.
      discardPart(part, of: id)
      guard saving(id, { try change(id) { $0.segments = nil } }) else { return .stopped }
    }
    return outcome
  }

  /// Asks for the file's first byte: a 206 with the whole size and a validator (`ETag` or
  /// `Last-Modified`) plans the download in segments.
  private func probe(_ id: DownloadID, _ record: DownloadRecord) async -> Probe {
    var request = requestMaker(for: record).request(from: 0)
    request.rangeStart = 0
    request.rangeEnd = 0
    let answer = Mutex<HTTPResponseHead?>(nil)
    var failure: (any Error)?
    do {
      try await http.stream(
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
    let decision = ResponseDecision.decide(
      head, offset: 0, accepting: configuration.acceptedStatusCodes,
      maxSize: limits(of: record).maxSize, conditional: local[id]?.revalidating == true)
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
      let segments = Segment.plan(total: total, count: configuration.segments)
      guard segments.count > 1 else { return .single }
      local[id]?.mirrors?.learn(validator, of: request.url)
      let saved = saving(id) {
        try change(id) { record in
          record.mirrorValidators = local[id]?.mirrors?.validators
          record.entityTag = entityTag
          record.lastModified = lastModified
          record.download.expectedBytes = total
          record.download.receivedBytes = 0
          record.segments = segments
        }
      }
      return saved ? .segmented : .ended(.stopped)
    }
  }

  /// Keeps how far the segments of `id` got, never less than what is stored; false when that
  /// cannot be saved (the download is paused, saying so) or the download is gone.
  private func save(_ segments: [Segment], of id: DownloadID) async -> Bool {
    // Paused by an earlier save that failed: said once. (One paused by hand saves on.)
    guard local[id]?.unsaved != true else { return false }
    do {
      try change(id) { record in
        guard let stored = record.segments, stored.count == segments.count else { return }
        if let mirrors = local[id]?.mirrors { record.mirrorValidators = mirrors.validators }
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
      pauseUnsaved(id, "\(error)")
      return false
    }
  }
}
