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

  /// The limits `record`'s download runs under, with `configuration`'s where it has none;
  /// `shared` is the rate every download shares, when the configuration has one.
  init(
    of record: DownloadRecord, under configuration: DownloadConfiguration,
    sharing shared: RateLimit?
  ) {
    let own = record.download.request.limits
    maxSize = own?.maxSize ?? configuration.maxSize
    rateLimit = shared ?? own?.bytesPerSecond.map { RateLimit(bytesPerSecond: $0) }
    resourceTimeout = own?.maxSeconds.map { .seconds($0) } ?? configuration.resourceTimeout
    maxRetries = own?.maxRetries ?? configuration.maxRetries
  }

  /// The error of a download that took longer than `resourceTimeout`.
  var timedOut: DownloadError {
    .resourceTimeout(seconds: Int(resourceTimeout.components.seconds))
  }
}
