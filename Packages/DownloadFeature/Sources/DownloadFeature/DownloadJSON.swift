import DownloadClient

/// One JSON object of `download --json` or `downloads --json`: an event (`added`, `state`,
/// `progress`) or a download of the queue. `state` is one of `DownloadState`'s words, and
/// `error` says why a download failed.
public struct DownloadJSON: Codable, Equatable, Sendable {
  public var event: String?
  public var id: String
  public var url: String?
  /// The other URLs of the file, when it has mirrors.
  public var mirrors: [String]?
  public var destination: String?
  public var file: String?
  public var state: DownloadState?
  public var retry: Int?
  /// The file was there already and the server said it had not changed.
  public var unchanged: Bool?
  public var error: String?
  public var receivedBytes: Int64?
  public var expectedBytes: Int64?
  public var bytesPerSecond: Int?
  public var secondsRemaining: Int64?
  /// Paused because its process ended, not by a pause (`Download.interrupted`).
  public var interrupted: Bool?

  public init(event: String?, id: DownloadID) {
    self.event = event
    self.id = id.rawValue
  }

  public init(event: String?, download: Download) {
    self.init(event: event, id: download.id)
    url = download.request.url.absoluteString
    let mirrors = download.request.mirrors.map(\.absoluteString)
    self.mirrors = mirrors.isEmpty ? nil : mirrors
    destination = download.destination?.path
    state = DownloadState(download.status)
    retry = download.status.retry
    error = download.status.failure
    receivedBytes = download.receivedBytes
    expectedBytes = download.expectedBytes
    bytesPerSecond = download.bytesPerSecond.map { Int($0) }
    interrupted = download.interrupted ? true : nil
  }

  public init(_ event: DownloadEvent) {
    let id = event.downloadID
    switch event {
    case .added(let download):
      self.init(event: "added", download: download)
    case .statusChanged(_, let status):
      self.init(event: "state", id: id)
      state = DownloadState(status)
      retry = status.retry
      error = status.failure
    case .progress(_, let progress):
      self.init(event: "progress", id: id)
      receivedBytes = progress.receivedBytes
      expectedBytes = progress.expectedBytes
      bytesPerSecond = Int(progress.bytesPerSecond)
      secondsRemaining = progress.estimatedTimeRemaining?.components.seconds
    case .finished(_, let file, let bytes):
      self.init(event: "state", id: id)
      state = .done
      self.file = file.path
      (receivedBytes, expectedBytes) = (bytes, bytes)
    case .unchanged(_, let file, let bytes):
      self.init(event: "state", id: id)
      state = .done
      unchanged = true
      self.file = file.path
      (receivedBytes, expectedBytes) = (bytes, bytes)
    case .failed(_, let error):
      self.init(event: "state", id: id)
      state = .failed
      self.error = "\(error)"
    case .removed:
      self.init(event: "state", id: id)
      state = .cancelled
    }
  }
}
