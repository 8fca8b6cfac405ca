import DownloadClient

/// The download screen's state: one row per download, in the order they were added, kept up
/// to date by the client's events.
public struct DownloadList: Equatable, Sendable {
  public private(set) var rows: [DownloadRow]

  public init(_ downloads: [Download] = []) {
    rows = downloads.map(DownloadRow.init)
  }

  /// Whether every row has finished or failed (or is paused).
  public var isSettled: Bool { rows.allSatisfy { !$0.status.isActive } }

  /// Adds or replaces the row of `download`.
  public mutating func show(_ download: Download) {
    if let index = rows.firstIndex(where: { $0.id == download.id }) {
      rows[index] = DownloadRow(download: download)
    } else {
      rows.append(DownloadRow(download: download))
    }
  }

  public mutating func apply(_ event: DownloadEvent) {
    switch event {
    case .added(let download):
      show(download)
    case .statusChanged(let id, let status):
      update(id) { $0.status = status }
    case .progress(let id, let progress):
      update(id) {
        $0.receivedBytes = progress.receivedBytes
        $0.expectedBytes = progress.expectedBytes ?? $0.expectedBytes
        $0.bytesPerSecond = progress.bytesPerSecond
        $0.estimatedTimeRemaining = progress.estimatedTimeRemaining
      }
    case .finished(let id, let file), .unchanged(let id, let file):
      update(id) {
        $0.status = .completed
        $0.name = file.lastPathComponent
        $0.receivedBytes = $0.expectedBytes ?? $0.receivedBytes
      }
    case .failed(let id, let error):
      update(id) { $0.status = .failed(reason: "\(error)") }
    case .removed(let id):
      rows.removeAll { $0.id == id }
    }
  }

  private mutating func update(_ id: DownloadID, _ change: (inout DownloadRow) -> Void) {
    guard let index = rows.firstIndex(where: { $0.id == id }) else { return }
    change(&rows[index])
  }
}
