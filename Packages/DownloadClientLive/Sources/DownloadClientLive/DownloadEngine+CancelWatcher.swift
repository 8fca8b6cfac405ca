import DownloadClient
import Foundation

/// Cancels from other processes: they ask by creating a download's cancel file (`Claims`), which
/// this process looks for while it runs downloads.
extension DownloadEngine {
  /// Looks four times a second (on the engine's clock), while `id` runs, for another
  /// process's request to cancel it; one task looks for every running download.
  func watch(_ claim: Claim, of id: DownloadID) {
    watched[id] = claim
    guard watcher == nil else { return }
    watcher = Task { [weak self, clock] in
      while true {
        do { try await clock.sleep(for: .milliseconds(250)) } catch { return }
        guard let self else { return }
        await self.cancelRequests()
      }
    }
  }

  /// Stops looking for requests to cancel `id`; the watcher ends with the last download.
  func unwatch(_ id: DownloadID) {
    watched[id] = nil
    if watched.isEmpty {
      watcher?.cancel()
      watcher = nil
    }
  }

  /// Stops the downloads another process asked to cancel.
  private func cancelRequests() async {
    for (id, claim) in watched where claim.cancelRequested {
      unwatch(id)
      await cancelledElsewhere(id)
    }
  }

  /// Stops `id`, which another process cancelled, and forgets it while still holding its
  /// claim. The process that asked removes the download too, once this one lets go: a
  /// failure here is only said in the log.
  private func cancelledElsewhere(_ id: DownloadID) async {
    guard let task = tasks.removeValue(forKey: id) else { return }
    task.cancel()
    configuration.log(.info, "\(id): cancelled by another process")
    do {
      try remove(id)
    } catch {
      configuration.log(.info, "\(id): \(error); the process that cancelled it removes it")
    }
  }
}
