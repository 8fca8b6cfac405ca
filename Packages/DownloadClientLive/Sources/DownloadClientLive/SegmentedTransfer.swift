import DownloadClient
import Foundation
import HTTPClient
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One attempt at a file fetched in segments: every unfinished segment over its own request
/// at once, each piece written at its place in the part file. The first failure stops the
/// others; how far each segment got is kept, so the next attempt goes on from there. With
/// mirrors, a segment whose mirror fails drops it and goes on from another, while one is left.
final class SegmentedTransfer: Sendable {
  /// The mirrors the segments come from, how to ask another one, and where to say that one
  /// was dropped.
  struct MirrorUse: Sendable {
    let mirrors: Mirrors
    let maker: RequestMaker
    let log: @Sendable (String) -> Void
  }

  private struct State {
    var segments: [Segment]
    var outcome: AttemptState.Outcome?
    var meter = RateMeter()
    var persisted: Int64 = 0
    /// The last save begun on the way, which awaits the one before it: the saves land in
    /// order, and the attempt ends after them all (one that landed later could mark segments
    /// of the next plan done).
    var lastSave: Task<Void, Never>?
  }

  private let http: HTTPClient
  private let handle: FileHandle
  private let total: Int64
  private let now: @Sendable () -> Duration
  private let deadline: (after: Duration, error: DownloadError)
  private let progress: @Sendable (DownloadProgress) -> Void
  private let persist: @Sendable ([Segment]) async -> Bool
  private let mirrors: MirrorUse?
  private let state: Mutex<State>

  /// The transfer of `segments` of a file of `total` bytes into `handle`. `now` is the time
  /// since the attempt started, `deadline` when it fails; `persist` saves how far the
  /// segments got, every few MiB and at the end; when it cannot (it said so, and paused the
  /// download), the transfer stops.
  init(
    http: HTTPClient, handle: FileHandle, segments: [Segment], total: Int64,
    now: @escaping @Sendable () -> Duration, deadline: (after: Duration, error: DownloadError),
    progress: @escaping @Sendable (DownloadProgress) -> Void,
    persist: @escaping @Sendable ([Segment]) async -> Bool, mirrors: MirrorUse? = nil
  ) {
    self.mirrors = mirrors
    self.http = http
    self.handle = handle
    self.total = total
    self.now = now
    self.deadline = deadline
    self.progress = progress
    self.persist = persist
    state = Mutex(State(segments: segments))
  }

  /// Fetches every unfinished segment with its request (by the segment's index); returns the
  /// outcome, and the segments as far as they got.
  func run(_ requests: [Int: HTTPRequest]) async -> (AttemptState.Outcome, [Segment]) {
    await withTaskGroup(of: Void.self) { group in
      for (index, request) in requests {
        group.addTask { await self.fetch(index, with: request) }
      }
      for await _ in group where state.withLock({ $0.outcome != nil }) {
        group.cancelAll()
      }
    }
    await state.withLock({ $0.lastSave })?.value
    let (outcome, segments) = state.withLock { state in
      (state.outcome ?? .completed, state.segments)
    }
    if outcome != .stopped, await !persist(segments) { return (.stopped, segments) }
    return (outcome, segments)
  }

  /// Fetches segment `index`, from another mirror each time its own fails while one is left.
  private func fetch(_ index: Int, with first: HTTPRequest) async {
    var request = first
    while let failure = await fetchOnce(index, with: request) {
      guard let next = retarget(index, from: request.url, after: failure) else {
        return end(failure)
      }
      request = next
    }
  }

  /// One request for the rest of segment `index`; nil when it arrived whole (or the transfer
  /// ended meanwhile), else the failure.
  private func fetchOnce(_ index: Int, with request: HTTPRequest) async -> AttemptState.Outcome? {
    let refused = Mutex<AttemptState.Outcome?>(nil)
    do {
      try await http.stream(
        request,
        HTTPReceiver(
          head: { head in
            guard let failure = self.accept(head, for: index, from: request.url) else {
              return true
            }
            refused.withLock { $0 = failure }
            return false
          },
          body: { data in self.write(data, to: index) }))
    } catch is CancellationError {
      return .failed(.transport("cancelled"), retryAfter: nil)
    } catch {
      return refused.withLock { $0 } ?? .failed(DownloadError.from(error), retryAfter: nil)
    }
    if let failure = refused.withLock({ $0 }) { return failure }
    let done = state.withLock { $0.segments[index].isDone || $0.outcome != nil }
    return done
      ? nil
      : .failed(.transport("the connection ended before its segment did"), retryAfter: nil)
  }

  /// The request for the rest of segment `index` from another mirror, after `url` failed with
  /// `failure`; nil when there is none to go to (no mirrors, the last one, a local failure,
  /// or the transfer is ending).
  private func retarget(_ index: Int, from url: URL, after failure: AttemptState.Outcome)
    -> HTTPRequest?
  {
    guard let mirrors, case .failed(let error, _) = failure, error.isMirrorFailure,
      !Task.isCancelled
    else { return nil }
    let drop = mirrors.mirrors.drop(url)
    let segment = state.withLock { $0.outcome == nil ? $0.segments[index] : nil }
    guard drop != .last, let segment else { return nil }
    let next = mirrors.maker.request(for: segment, url: mirrors.mirrors.url(for: index))
    if drop == .dropped {
      mirrors.log(Mirrors.dropped(url, after: error, next: next.url))
    }
    return next
  }

  /// Nil when `head`, from `url`, continues segment `index` (a 206 from the segment's next
  /// byte, of the file's size); else why not.
  private func accept(_ head: HTTPResponseHead, for index: Int, from url: URL)
    -> AttemptState.Outcome?
  {
    let next = state.withLock { $0.segments[index].next }
    let decision = ResponseDecision.decide(
      head, offset: next, accepting: 200..<300, maxSize: nil)
    switch decision {
    case .fail(let error, let retryAfter):
      return .failed(error, retryAfter: retryAfter)
    case .write(let from, let size) where head.status == 206 && from == next && size == total:
      mirrors?.mirrors.learn(head.rangeValidator, of: url)
      return nil
    case .write(_, let size?) where mirrors != nil && size != total:
      return .failed(
        .notContinued("\(url.redactingPassword) serves \(size) bytes, not \(total)"),
        retryAfter: nil)
    default:
      return .failed(
        .notContinued("the file changed on the server (HTTP \(head.status))"), retryAfter: nil)
    }
  }

  /// Writes a piece of segment `index` at its place; false stops the segment (done, failed,
  /// or stopped by another's failure).
  private func write(_ data: Data, to index: Int) -> Bool {
    let (offset, count) = state.withLock { state -> (Int64, Int) in
      let segment = state.segments[index]
      guard state.outcome == nil else { return (0, 0) }
      return (segment.next, Int(min(Int64(data.count), segment.end - segment.next)))
    }
    guard count > 0 else { return false }
    if let failure = PartFile.write(data.prefix(count), to: handle, at: offset) {
      end(.failed(.file("cannot write the part file: \(failure)"), retryAfter: nil))
      return false
    }
    let time = now()
    let (update, toPersist, more) = state.withLock {
      state -> (DownloadProgress?, [Segment]?, Bool) in
      state.segments[index].received += Int64(count)
      let received = state.segments.received
      var toPersist: [Segment]?
      if received - state.persisted >= 4 << 20 || state.segments[index].isDone {
        state.persisted = received
        toPersist = state.segments
      }
      var update: DownloadProgress?
      if state.meter.record(bytes: received, at: time) {
        update = DownloadProgress(
          receivedBytes: received, expectedBytes: total,
          bytesPerSecond: state.meter.bytesPerSecond,
          estimatedTimeRemaining: state.meter.timeRemaining(for: total - received))
      }
      return (update, toPersist, !state.segments[index].isDone)
    }
    if let update { progress(update) }
    if let toPersist {
      state.withLock { state in
        let previous = state.lastSave
        state.lastSave = Task {
          await previous?.value
          if await !persist(toPersist) { end(.stopped) }
        }
      }
    }
    if time >= deadline.after {
      end(.failed(deadline.error, retryAfter: nil))
      return false
    }
    return more
  }

  private func end(_ outcome: AttemptState.Outcome) {
    state.withLock { state in
      if state.outcome == nil { state.outcome = outcome }
    }
  }
}
