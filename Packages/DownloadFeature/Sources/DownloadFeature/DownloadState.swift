import DownloadClient

/// The one vocabulary of download states, used by every list, row, event line and JSON
/// object: queued, downloading, paused, waiting for network, done, failed, cancelled.
public enum DownloadState: String, CaseIterable, Codable, Sendable {
  case queued
  /// Running, or waiting before a retry.
  case downloading
  case paused
  case waitingForNetwork = "waiting for network"
  case done
  case failed
  /// Stopped for good: its partial data is gone and the queue forgot it.
  case cancelled

  /// The state of a download with `status`.
  public init(_ status: DownloadStatus) {
    switch status {
    case .queued: self = .queued
    case .running, .retrying: self = .downloading
    case .waitingForNetwork: self = .waitingForNetwork
    case .paused: self = .paused
    case .completed: self = .done
    case .failed: self = .failed
    }
  }

  /// The word shown for the state.
  public var word: String { rawValue }
}

extension DownloadStatus {
  /// The retry a download waits for, if any.
  public var retry: Int? {
    if case .retrying(let attempt) = self { return attempt }
    return nil
  }

  /// Why the download failed, if it did.
  public var failure: String? {
    if case .failed(let reason) = self { return reason }
    return nil
  }

  /// "downloading", "downloading (retry 2)", "failed: <reason>", …
  public var text: String {
    let word = DownloadState(self).word
    if let retry { return "\(word) (retry \(retry))" }
    if let failure { return "\(word): \(failure)" }
    return word
  }
}
