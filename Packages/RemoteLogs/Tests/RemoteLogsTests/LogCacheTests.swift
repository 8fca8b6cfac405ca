import DownloadClient
import Foundation
import RemoteLogs
import Testing

@Suite struct LogCacheTests {
  private let cache = LogCache(folder: URL(fileURLWithPath: "/tmp/cache", isDirectory: true))

  @Test func eachURLHasAFileOfItsOwnKeepingItsName() {
    let a = cache.file(for: URL(string: "https://logs.test/2024/access.log.gz")!)
    let b = cache.file(for: URL(string: "https://logs.test/2025/access.log.gz")!)
    #expect(a != b)
    #expect(a.deletingLastPathComponent().path == "/tmp/cache")
    #expect(a.lastPathComponent.hasSuffix("-access.log.gz"))
    #expect(a.lastPathComponent.count == 16 + 1 + "access.log.gz".count)
    #expect(cache.file(for: URL(string: "https://logs.test/2024/access.log.gz")!) == a)
  }

  /// The key is the URL without its password, which never reaches the disk.
  @Test func thePasswordIsNoPartOfTheKey() {
    #expect(
      cache.file(for: URL(string: "https://u:one@logs.test/a.log")!)
        == cache.file(for: URL(string: "https://u:two@logs.test/a.log")!))
  }

  @Test func everyDownloadAsksWhetherTheCopyChangedAndRefreshFetchesAnyway() {
    let usual = cache.configuration(refresh: false)
    #expect(usual.outputDirectory == cache.folder && usual.ifChanged && !usual.overwrite)
    #expect(cache.configuration(refresh: true).overwrite)
  }

  @Test func aCopyTheQueueForgotIsRemovedAndAKnownOneKept() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("LogCacheTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let cache = LogCache(folder: folder)
    let url = URL(string: "http://logs.test/access.log")!
    try Data("x".utf8).write(to: cache.file(for: url))
    let done = Download(
      id: DownloadID("00000001"), request: DownloadRequest(url: url), status: .completed,
      destination: cache.file(for: url))
    #expect(!cache.dropUnknownCopy(of: url, knownTo: [done]))
    var running = done
    running.status = .running
    #expect(cache.dropUnknownCopy(of: url, knownTo: [running]))
    #expect(!FileManager.default.fileExists(atPath: cache.file(for: url).path))
    #expect(!cache.dropUnknownCopy(of: url, knownTo: []))
  }
}
