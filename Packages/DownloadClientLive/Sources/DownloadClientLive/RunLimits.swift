import DownloadClient
import Foundation
import HTTPClient

/// The limits a download runs under: those it was given, kept in its request
/// (`DownloadRequest.limits`), over this engine's configuration, so that a resume in another
/// process, with other options or none, keeps them.
struct RunLimits {
  let maxSize: Int64?
  /// The run's rate, shared by every transfer of the run: the download's own, within the one
  /// every download shares.
  let rateLimit: RateLimit
  let resourceTimeout: Duration
  let maxRetries: Int

  /// The limits `record`'s download runs under, with `configuration`'s where it has none;
  /// `rateLimit` is the run's (`DownloadRun.keepRate(of:)`).
  init(
    of record: DownloadRecord, under configuration: DownloadConfiguration,
    rateLimit: RateLimit
  ) {
    let own = record.download.request.limits
    maxSize = own?.maxSize ?? configuration.maxSize
    self.rateLimit = rateLimit
    resourceTimeout = own?.maxSeconds.map { .seconds($0) } ?? configuration.resourceTimeout
    maxRetries = own?.maxRetries ?? configuration.maxRetries
  }

  /// The error of a download that took longer than `resourceTimeout`.
  var timedOut: DownloadError {
    .resourceTimeout(seconds: Int(resourceTimeout.components.seconds))
  }
}
