import Foundation

/// Deterministic file contents.
func content(_ count: Int, seed: UInt8 = 7) -> Data {
  Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ seed })
}

/// A fresh folder, removed when released.
final class TemporaryFolder: Sendable {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("DownloadClientLiveTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}
