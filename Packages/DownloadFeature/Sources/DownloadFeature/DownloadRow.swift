import DownloadClient
import Foundation

/// One line of the download screen.
public struct DownloadRow: Equatable, Sendable, Identifiable {
  public var id: DownloadID
  public var name: String
  public var status: DownloadStatus
  public var receivedBytes: Int64
  public var expectedBytes: Int64?
  public var bytesPerSecond: Double
  public var estimatedTimeRemaining: Duration?
  /// Paused because its process ended, not by a pause (`Download.interrupted`).
  public var interrupted = false
  /// The bytes that arrived since the row was made: not an earlier run's, which a resumed
  /// download starts from, and those of a start over counted again.
  public private(set) var bytesThisRun: Int64 = 0

  public init(download: Download) {
    id = download.id
    name = download.destination?.lastPathComponent ?? download.request.url.lastPathComponent
    status = download.status
    receivedBytes = download.receivedBytes
    expectedBytes = download.expectedBytes
    bytesPerSecond = download.bytesPerSecond ?? 0
    estimatedTimeRemaining = nil
    interrupted = download.interrupted
  }

  /// The download has `total` bytes now; fewer than before means it started over.
  public mutating func received(_ total: Int64) {
    bytesThisRun += total >= receivedBytes ? total - receivedBytes : total
    receivedBytes = total
  }

  /// From 0 to 1, when the size is known.
  public var fraction: Double? {
    if status == .completed { return 1 }
    guard let expectedBytes else { return nil }
    return expectedBytes > 0 ? min(1, Double(receivedBytes) / Double(expectedBytes)) : 1
  }

  /// "42%", or "" when the size is unknown.
  public var percentText: String {
    fraction.map { "\(Int(($0 * 100).rounded(.down)))%" } ?? ""
  }

  /// "4.2 MiB / 10.0 MiB", or just the received bytes when the size is unknown or the download
  /// is done.
  public var bytesText: String {
    let received = Units.bytes(receivedBytes)
    if status == .completed { return received }
    return expectedBytes.map { "\(received) / \(Units.bytes($0))" } ?? received
  }

  /// "1.2 MiB/s" while running, else "".
  public var speedText: String {
    status == .running && bytesPerSecond > 0 ? "\(Units.bytes(Int64(bytesPerSecond)))/s" : ""
  }

  /// "1:05" while running with a known size, else "".
  public var etaText: String {
    guard status == .running, let estimatedTimeRemaining else { return "" }
    return Units.clock(estimatedTimeRemaining)
  }

  /// The state's word, with the retry or the reason of a failure: "downloading (retry 2)",
  /// "failed: <reason>".
  public var stateText: String { status.text }
}
