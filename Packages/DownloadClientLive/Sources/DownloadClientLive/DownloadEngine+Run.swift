import DownloadClient
import Foundation
import Reachability

/// A download's run: its claim, then attempts until it completes, fails or is cancelled, with
/// retries after a backoff and waits for the network.
extension DownloadEngine {
  func run(_ id: DownloadID) async {
    defer {
      if !Task.isCancelled {
        tasks[id] = nil
        schedule()
      }
    }
    let claim: Claim
    do {
      claim = try claims.claim(id)
    } catch {
      // Another process writes it: its record is that process's to change.
      if var record = try? record(id) {
        record.download.status = .paused
        queue?.replace(record)
      }
      return events.send(.failed(id, error))
    }
    defer {
      if (try? record(id)) == nil { claims.forget(id) }
      claim.release()
    }
    if claim.canBeCancelledElsewhere { watch(claim, of: id) }
    defer { unwatch(id) }
    do {
      guard try markRunning(id) else { return }
    } catch {
      return stopUnsaved(id, error)
    }
    local[id]?.unsaved = false
    guard let record = try? record(id) else { return }
    let digest = record.download.request.expectedChecksum.map { RunningDigest($0.algorithm) }
    if record.placing || record.partFile != nil, await finishPlacing(id, digest: digest) {
      return
    }
    if record.needsSecrets && local[id]?.secrets == nil { return await fail(id, .missingSecrets) }
    let given = local[id]?.secrets ?? record.download.request
    if !given.mirrors.isEmpty {
      local[id, default: LocalDownload()].mirrors = Mirrors(
        [given.url] + given.mirrors, validators: record.mirrorValidators ?? [:])
    }
    defer { local[id]?.mirrors = nil }
    let limits = limits(of: record)
    let deadline = clock.now.advanced(by: limits.resourceTimeout)
    var retries = 0
    var mostOnDisk = bytesOnDisk(id)
    while !Task.isCancelled {
      guard clock.now < deadline else { return await fail(id, limits.timedOut) }
      if retries > 0, !saving(id, { try setStatus(.running, of: id) }) { return }
      let outcome = await attempt(id, deadline: deadline, digest: digest)
      guard !Task.isCancelled else { return }
      // The retry budget is for attempts that get nowhere: only bytes on disk beyond the most
      // there ever were give it back. A restart from zero, or the same prefix again, does not,
      // nor bytes that came too slowly.
      let onDisk = bytesOnDisk(id)
      if onDisk > mostOnDisk {
        mostOnDisk = onDisk
        if case .failed(.tooSlow, _) = outcome {} else { retries = 0 }
      }
      switch outcome {
      case .stopped:
        return
      case .completed:
        await complete(id, digest: digest)
        return
      case .unchanged:
        local[id]?.revalidating = false
        guard saving(id, { try change(id) { $0.download.status = .completed } }) else {
          return
        }
        if let file = try? self.record(id).download.destination {
          events.send(.unchanged(id, file: file, bytes: PartFile.size(of: file)))
        }
        return
      case .failed(let error, let retryAfter):
        if let mirrors = local[id]?.mirrors, error.isMirrorFailure {
          let failed = mirrors.current
          if mirrors.drop(failed) != .last {
            configuration.log(
              .error, "\(id): \(Mirrors.dropped(failed, after: error, next: mirrors.current))")
            continue
          }
        }
        if error.isTransport, onDisk > 0, await !hostIsReachable(id) {
          // The host that sent the bytes on disk is gone: wait for it, keeping the bytes and
          // the retries. (A host never reached is a dead server: it fails after the retries.)
          configuration.log(.info, "\(id): \(error); waiting for the network")
          guard saving(id, { try setStatus(.waitingForNetwork, of: id) }) else { return }
          guard await waitForHost(of: id, until: deadline) else {
            if !Task.isCancelled { await fail(id, limits.timedOut) }
            return
          }
          configuration.log(.info, "\(id): the host is reachable again")
          guard saving(id, { try setStatus(.running, of: id) }) else { return }
          continue
        }
        let decision = RetryDecision.after(
          error, retryAfter: retryAfter, retries: retries, maxRetries: limits.maxRetries,
          backoff: configuration.backoff, unit: random(),
          timeLeft: clock.now.duration(to: deadline),
          resourceTimeout: limits.timedOut)
        guard case .retry(let delay) = decision else {
          if case .giveUp(let reason) = decision { await fail(id, reason) }
          return
        }
        retries += 1
        configuration.log(
          .info, "\(id): \(error); retry \(retries) in \(String(format: "%.1f", delay.inSeconds)) s"
        )
        guard saving(id, { try setStatus(.retrying(attempt: retries), of: id) }) else {
          return
        }
        do { try await clock.sleep(for: delay) } catch { return }
      }
    }
  }

  /// The bytes on disk of `id`, received in this process or an earlier one.
  func bytesOnDisk(_ id: DownloadID) -> Int64 {
    guard let record = try? record(id) else { return 0 }
    return record.bytesOnDisk
  }

  /// Whether the host of `id`'s URL can be reached; true when that is not known.
  private func hostIsReachable(_ id: DownloadID) async -> Bool {
    guard let url = try? record(id).download.request.url, let host = ReachabilityHost(url: url)
    else { return true }
    return await reachability.status(host) != .unreachable
  }

  /// Waits until the host of `id`'s URL is reachable; false when `deadline` or a
  /// cancellation comes first.
  private func waitForHost(of id: DownloadID, until deadline: C.Instant) async -> Bool {
    guard let url = try? record(id).download.request.url, let host = ReachabilityHost(url: url)
    else { return true }
    return await reachability.waitUntilReachable(host, until: deadline, clock: clock)
  }

}
