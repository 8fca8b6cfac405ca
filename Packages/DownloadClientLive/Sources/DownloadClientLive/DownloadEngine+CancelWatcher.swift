import DownloadClient
import Foundation

/// Cancels from other processes: they ask by creating a download's cancel file (`Claims`), which
/// this process looks for while it runs downloads.
extension DownloadEngine {
  /// Looks four times a second (on the engine's clock), while `run` runs, for another
  /// process's request to cancel it; one task looks for every running download.
  func watch(_ claim: Claim, of run: DownloadRun<C>) {
    run.watchedClaim = claim
    watchedCount += 1
    guard watcher == nil else { return }
    watcher = Task { [weak self, clock] in
      while true {
        do { try await clock.sleep(for: .milliseconds(250)) } catch { return }
        guard let self else { return }
        await self.cancelRequests()
      }
    }
  }

  /// Stops looking for requests to cancel `run`; the watcher ends with the last download.
  func unwatch(_ run: DownloadRun<C>) {
    guard run.watchedClaim != nil else { return }
    run.watchedClaim = nil
    watchedCount -= 1
    if watchedCount == 0 {
      watcher?.cancel()
      watcher = nil
    }
  }

  /// Stops the downloads another process asked to cancel.
  private func cancelRequests() async {
    for run in runs.values where run.watchedClaim?.cancelRequested == true {
      unwatch(run)
      await cancelledElsewhere(run.id)
    }
  }

  /// Stops `id`, which another process cancelled, and forgets it while still holding its
  /// claim. The process that asked removes the download too, once this one lets go: a
  /// failure here is only said in the log.
  private func cancelledElsewhere(_ id: DownloadID) async {
    guard stopTask(of: id) else { return }
    configuration.log(.info, "\(id): cancelled by another process")
    do {
      try remove(id)
    } catch {
      configuration.log(.info, "\(id): \(error); the process that cancelled it removes it")
    }
  }
}
