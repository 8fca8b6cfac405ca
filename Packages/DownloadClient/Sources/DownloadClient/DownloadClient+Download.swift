extension DownloadClient {
  /// Downloads `request` to its end, for code that wants a file and not a queue to show:
  /// starts it (or goes on with the same download, as `start` does), waits until it has
  /// finished, and returns it done, its file in `destination`. Throws the `DownloadError` it
  /// failed with (the bytes on disk stay for a later `resume`), `.unknownDownload` when it was
  /// cancelled meanwhile, and `CancellationError` when the calling task is cancelled (the
  /// download goes on).
  public func download(_ request: DownloadRequest) async throws -> Download {
    // Subscribed before the start, so that an end that comes at once is heard.
    let events = events()
    var download = try await start(request)
    if download.status == .completed { return download }
    for await event in events where event.downloadID == download.id {
      switch event {
      case .finished(_, let file, let bytes), .unchanged(_, let file, let bytes):
        download.status = .completed
        download.destination = file
        download.receivedBytes = bytes
        return download
      case .failed(_, let error):
        throw error
      case .removed(let id):
        throw DownloadError.unknownDownload(id)
      case .statusChanged(_, let status):
        download.status = status
      case .progress(_, let progress):
        download.receivedBytes = progress.receivedBytes
        download.expectedBytes = progress.expectedBytes
      case .added:
        continue
      }
    }
    try Task.checkCancellation()
    throw DownloadError.unrecoverable("the download manager stopped before the download ended")
  }
}
