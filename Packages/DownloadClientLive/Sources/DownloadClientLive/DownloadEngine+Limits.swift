import DownloadClient
import Foundation
import HTTPClient

/// The limits a download runs under: those it was given, kept in its request
/// (`DownloadRequest.limits`), over this engine's configuration, so that a resume in another
/// process, with other options or none, keeps them.
struct RunLimits {
  let maxSize: Int64?
  /// The run's own budget when the configuration has one (it is shared by every transfer of
  /// the run), else the download's own rate.
  let rateLimit: RateLimit?
  let resourceTimeout: Duration
  let maxRetries: Int

  /// The error of a download that took longer than `resourceTimeout`.
  var timedOut: DownloadError {
    .resourceTimeout(seconds: Int(resourceTimeout.components.seconds))
  }
}

extension DownloadEngine {
  /// The limits `record`'s download runs under.
  func limits(of record: DownloadRecord) -> RunLimits {
    let own = record.download.request.limits
    return RunLimits(
      maxSize: own?.maxSize ?? configuration.maxSize,
      rateLimit: rateLimit ?? own?.bytesPerSecond.map { RateLimit(bytesPerSecond: $0) },
      resourceTimeout: own?.maxSeconds.map { .seconds($0) } ?? configuration.resourceTimeout,
      maxRetries: own?.maxRetries ?? configuration.maxRetries)
  }
}
