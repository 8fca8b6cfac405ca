import DownloadClient

/// The download screen's state: one row per download, in the order they were added, kept up
/// to date by the client's events. Each event costs the same however many rows there are: rows
/// are found by ID, and the rows in each state are counted as they change.
public struct DownloadList: Equatable, Sendable {
  public private(set) var rows: [DownloadRow] = []
  private var positions: [DownloadID: Int] = [:]
  /// The number of rows in each state.
  private var counts: [DownloadState: Int] = [:]
  /// The positions of the rows under way (downloading or waiting for the network).
  private var underWay: Set<Int> = []

  public init(_ downloads: [Download] = []) {
    for download in downloads { show(download) }
  }

  /// Whether every row has finished or failed (or is paused).
  public var isSettled: Bool {
    [DownloadState.queued, .downloading, .waitingForNetwork].allSatisfy { count(of: $0) == 0 }
  }

  /// The number of rows in `state`.
  public func count(of state: DownloadState) -> Int { counts[state] ?? 0 }

  /// The row of `id`, if shown.
  public func row(_ id: DownloadID) -> DownloadRow? { positions[id].map { rows[$0] } }

  /// The rows under way, in order.
  var rowsUnderWay: [DownloadRow] { underWay.sorted().map { rows[$0] } }

  /// Adds or replaces the row of `download`.
  public mutating func show(_ download: Download) {
    let row = DownloadRow(download: download)
    if let index = positions[download.id] {
      set(row, at: index)
    } else {
      append(row)
    }
  }

  /// Puts `row` at `index`, keeping the counts.
  private mutating func set(_ row: DownloadRow, at index: Int) {
    counting(index, by: -1)
    rows[index] = row
    counting(index, by: 1)
  }

  /// Counts the row at `index` in (or out of) its state.
  private mutating func counting(_ index: Int, by amount: Int) {
    let state = rows[index].state
    counts[state, default: 0] += amount
    if state == .downloading || state == .waitingForNetwork {
      if amount > 0 { underWay.insert(index) } else { underWay.remove(index) }
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
        $0.received(progress.receivedBytes)
        $0.expectedBytes = progress.expectedBytes ?? $0.expectedBytes
        $0.bytesPerSecond = progress.bytesPerSecond
        $0.estimatedTimeRemaining = progress.estimatedTimeRemaining
      }
    case .finished(let id, let file, let bytes), .unchanged(let id, let file, let bytes):
      update(id) {
        $0.status = .completed
        $0.name = file.lastPathComponent
        $0.received(bytes)
        $0.expectedBytes = bytes
      }
    case .failed(let id, let error):
      update(id) { $0.status = .failed(reason: "\(error)") }
    case .removed(let id):
      guard positions[id] != nil else { return }
      // Rare (a cancel): the positions after it move, so everything is counted again.
      let kept = rows.filter { $0.id != id }
      self = DownloadList()
      for row in kept { append(row) }
    }
  }

  private mutating func append(_ row: DownloadRow) {
    positions[row.id] = rows.count
    rows.append(row)
    counting(rows.count - 1, by: 1)
  }

  private mutating func update(_ id: DownloadID, _ change: (inout DownloadRow) -> Void) {
    guard let index = positions[id] else { return }
    var row = rows[index]
    change(&row)
    set(row, at: index)
  }
}
