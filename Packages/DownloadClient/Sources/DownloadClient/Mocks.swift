import Unimplemented

extension DownloadClient {
  /// A client that a test did not expect to be used: every endpoint throws and is reported
  /// (see `Unimplemented`), and `events` is reported and ends at once.
  public static let failing = DownloadClient(
    start: { _ in throw unimplemented("DownloadClient.start") },
    pause: { _ in throw unimplemented("DownloadClient.pause") },
    resume: { _ in throw unimplemented("DownloadClient.resume") },
    cancel: { _ in throw unimplemented("DownloadClient.cancel") },
    cancelAll: { throw unimplemented("DownloadClient.cancelAll") },
    list: { throw unimplemented("DownloadClient.list") },
    events: {
      _ = unimplemented("DownloadClient.events")
      return AsyncStream { $0.finish() }
    }
  )
}
