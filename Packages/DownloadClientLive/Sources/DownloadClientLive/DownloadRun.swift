import ChecksumTypes
import DownloadClient
import Foundation
import HTTPClient
import Reachability

/// One download as this process runs it: its task and claim, what this process knows of it
/// beside its record (never persisted, dropped whole when the download is removed), and its
/// run: attempts until it completes, fails or is cancelled, with retries after a backoff and
/// waits for the network. Its record stays in the engine's queue, which the run changes
/// through the store (`change`).
///
/// Not `Sendable`: every method takes its engine as `isolated`, so a run is only ever touched
/// on its engine's actor, as the engine's own state is.
final class DownloadRun<C: Clock<Duration>> {
  let id: DownloadID
  /// The running task; nil while the download waits, is paused or has ended.
  var task: Task<Void, Never>?
  /// The last task stopped, which may still be letting go of the part file and the claim: the
  /// next one waits for it.
  var stopping: Task<Void, Never>?
  /// The claim that another process may ask to cancel, while the download runs.
  var watchedClaim: Claim?
  /// Whether a task of this run holds the download's claim: a stopped one may, until it has
  /// let go.
  var holdsClaim = false
  /// The request with its secrets, as given in this process.
  var secrets: DownloadRequest?
  /// A done download fetched again only if its file changed (`ifChanged`).
  var revalidating = false
  /// Its server was found not to take ranges: it goes over one connection.
  var unsplittable = false
  /// The mirrors left, while it runs with mirrors.
  var mirrors: Mirrors?
  /// The digests of its pieces, when its request gave them in this process (the queue does
  /// not keep them), and how often a piece was mended.
  var pieceChecksums: PieceChecksums?
  var mendings = 0
  /// Paused because its record could not be saved (said once): no more saves are tried until
  /// it runs again. A download paused by hand still saves how far it got.
  var unsaved = false
  /// Its smoothed rate as the last progress said it, set by the transport (off the actor), so
  /// that a list says how fast a running download goes.
  let rate = LastRate()
  /// The rate its transfers keep: its own limit, changed in place when the limit changes,
  /// within the one every download shares.
  let rateLimit: RateLimit

  init(_ id: DownloadID, sharing shared: RateLimit) {
    self.id = id
    rateLimit = RateLimit(bytesPerSecond: nil, within: shared)
  }

  /// Done: what held for this run only is dropped (the secrets stay, for a later fetch).
  func finished() {
    revalidating = false
    unsplittable = false
    pieceChecksums = nil
    mendings = 0
  }

  /// Sends `progress` as the download's event, and keeps its rate for lists.
  func progress(to events: EventHub) -> @Sendable (DownloadProgress) -> Void {
    { [rate, id] progress in
      rate.set(progress.bytesPerSecond)
      events.send(.progress(id, progress))
    }
  }

  /// The download's record in the engine's queue; nil once it is removed.
  func record(in engine: isolated DownloadEngine<C>) -> DownloadRecord? {
    try? engine.record(id)
  }

  /// The bytes on disk, received in this process or an earlier one.
  func bytesOnDisk(in engine: isolated DownloadEngine<C>) -> Int64 {
    record(in: engine)?.bytesOnDisk ?? 0
  }

  /// The limits the download runs under.
  func limits(of record: DownloadRecord, in engine: isolated DownloadEngine<C>) -> RunLimits {
    keepRate(of: record)
    return RunLimits(of: record, under: engine.configuration, rateLimit: rateLimit)
  }

  /// Gives its transfers the rate `record`'s limits say, from their next read (none: only the
  /// shared one).
  func keepRate(of record: DownloadRecord) {
    let own = record.download.request.limits?.bytesPerSecond
    if rateLimit.rate != own { rateLimit.change(to: own) }
  }

  /// The maker of `record`'s requests, with the secrets given in this process.
  func requestMaker(for record: DownloadRecord, in engine: isolated DownloadEngine<C>)
    -> RequestMaker
  {
    RequestMaker(
      given: secrets ?? record.download.request, record: record,
      configuration: engine.configuration, rateLimit: limits(of: record, in: engine).rateLimit,
      revalidating: revalidating, mirrors: mirrors)
  }

  /// Why the download may not write `part`: a folder on the way is a link
  /// (`PartFile.linkedFolder`), or the file there is not its own (`PartFile.refusal`).
  func partRefusal(
    _ part: URL, of record: DownloadRecord, in engine: isolated DownloadEngine<C>
  ) -> String? {
    let folder = record.download.request.folder ?? engine.configuration.outputDirectory
    if let linked = PartFile.linkedFolder(of: part, below: folder) { return linked }
    // Queues written before segments recorded their part file have none: theirs is taken.
    if record.segments != nil && record.partFile == nil { return nil }
    return PartFile.refusal(of: part, recorded: record.partFile)
  }

  /// Removes the part file `part`, whose bytes are of no use; a file that cannot be removed
  /// is said (an error in the log, which the command line always shows).
  func discardPart(_ part: URL, in engine: isolated DownloadEngine<C>) {
    engine.discardPart(part, of: id)
  }

  // MARK: The run

  /// Runs the download: its claim, then attempts until it completes, fails or is cancelled.
  func run(in engine: isolated DownloadEngine<C>) async {
    defer {
      if !Task.isCancelled { engine.ended(self) }
    }
    let claim: Claim
    do {
      claim = try engine.claims.claim(id)
    } catch {
      // Another process writes it: its record is that process's to change.
      engine.pausedHere(id)
      return engine.events.send(.failed(id, error))
    }
    holdsClaim = true
    defer {
      if record(in: engine) == nil { engine.claims.forget(id) }
      claim.release()
      holdsClaim = false
    }
    if claim.canBeCancelledElsewhere { engine.watch(claim, of: self) }
    defer { engine.unwatch(self) }
    do {
      guard try markRunning(in: engine) else { return }
    } catch {
      return stopUnsaved(error, in: engine)
    }
    unsaved = false
    guard let record = record(in: engine) else { return }
    let digest = record.download.request.expectedChecksum.map { RunningDigest($0.algorithm) }
    let completion = Completion(run: self, digest: digest)
    if record.placing || record.partFile != nil, await completion.finishPlacing(in: engine) {
      return
    }
    if record.needsSecrets && secrets == nil { return await fail(.missingSecrets, in: engine) }
    let given = secrets ?? record.download.request
    if !given.mirrors.isEmpty {
      mirrors = Mirrors([given.url] + given.mirrors, validators: record.mirrorValidators ?? [:])
    }
    defer { mirrors = nil }
    let limits = limits(of: record, in: engine)
    let deadline = engine.clock.now.advanced(by: limits.resourceTimeout)
    var retries = 0
    var mostOnDisk = bytesOnDisk(in: engine)
    while !Task.isCancelled {
      guard engine.clock.now < deadline else { return await fail(limits.timedOut, in: engine) }
      if retries > 0, !saving({ try engine.setStatus(.running, of: id) }, in: engine) { return }
      let outcome = await attempt(until: deadline, digest: digest, in: engine)
      guard !Task.isCancelled else { return }
      switch outcome {
      case .stopped:
        return
      case .completed:
        await completion.complete(in: engine)
        return
      case .unchanged:
        revalidating = false
        guard saving({ try change(in: engine) { $0.download.status = .completed } }, in: engine)
        else { return }
        if let file = self.record(in: engine)?.download.destination {
          engine.events.send(.unchanged(id, file: file, bytes: PartFile.size(of: file)))
        }
        return
      case .failed(let error, let retryAfter):
        // The retry budget is for attempts that get nowhere: only bytes on disk beyond the most
        // there ever were give it back. A restart from zero, or the same prefix again, does
        // not, nor bytes that came too slowly.
        let onDisk = bytesOnDisk(in: engine)
        if onDisk > mostOnDisk {
          mostOnDisk = onDisk
          if case .tooSlow = error {} else { retries = 0 }
        }
        if let mirrors, error.isMirrorFailure {
          let failed = mirrors.current
          if mirrors.drop(failed) != .last {
            engine.configuration.log(
              .error, "\(id): \(Mirrors.dropped(failed, after: error, next: mirrors.current))")
            continue
          }
        }
        if error.isTransport, onDisk > 0, await !hostIsReachable(in: engine) {
          // The host that sent the bytes on disk is gone: wait for it, keeping the bytes and
          // the retries. (A host never reached is a dead server: it fails after the retries.)
          engine.configuration.log(.info, "\(id): \(error); waiting for the network")
          guard saving({ try engine.setStatus(.waitingForNetwork, of: id) }, in: engine)
          else { return }
          guard await waitForHost(until: deadline, in: engine) else {
            if !Task.isCancelled { await fail(limits.timedOut, in: engine) }
            return
          }
          engine.configuration.log(.info, "\(id): the host is reachable again")
          guard saving({ try engine.setStatus(.running, of: id) }, in: engine) else { return }
          continue
        }
        let decision = RetryDecision.after(
          error, retryAfter: retryAfter, retries: retries, maxRetries: limits.maxRetries,
          backoff: engine.configuration.backoff, unit: engine.random(),
          timeLeft: engine.clock.now.duration(to: deadline),
          resourceTimeout: limits.timedOut)
        guard case .retry(let delay) = decision else {
          if case .giveUp(let reason) = decision { await fail(reason, in: engine) }
          return
        }
        retries += 1
        engine.configuration.log(
          .info, "\(id): \(error); retry \(retries) in \(String(format: "%.1f", delay.inSeconds)) s"
        )
        guard saving({ try engine.setStatus(.retrying(attempt: retries), of: id) }, in: engine)
        else { return }
        do { try await engine.clock.sleep(for: delay) } catch { return }
      }
    }
  }

  /// One attempt: over several connections when the download is in segments or can be
  /// (`SegmentedAttempt`), else over one (`SingleAttempt`).
  private func attempt(
    until deadline: C.Instant, digest: RunningDigest?, in engine: isolated DownloadEngine<C>
  ) async -> AttemptState.Outcome {
    if let outcome = await SegmentedAttempt(run: self, deadline: deadline).perform(in: engine) {
      return outcome
    }
    return await SingleAttempt(run: self, deadline: deadline, digest: digest).perform(in: engine)
  }

  /// Whether the host of the download's URL can be reached; true when that is not known.
  private func hostIsReachable(in engine: isolated DownloadEngine<C>) async -> Bool {
    guard let url = record(in: engine)?.download.request.url, let host = ReachabilityHost(url: url)
    else { return true }
    return await engine.reachability.status(host) != .unreachable
  }

  /// Waits until the host of the download's URL is reachable; false when `deadline` or a
  /// cancellation comes first.
  private func waitForHost(until deadline: C.Instant, in engine: isolated DownloadEngine<C>)
    async -> Bool
  {
    guard let url = record(in: engine)?.download.request.url, let host = ReachabilityHost(url: url)
    else { return true }
    return await engine.reachability.waitUntilReachable(host, until: deadline, clock: engine.clock)
  }
}
