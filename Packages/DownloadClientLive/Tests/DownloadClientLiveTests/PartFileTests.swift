import Foundation
import Testing

@testable import DownloadClientLive

@Suite struct PartFileTests {
  @Test func thePartFileSitsBesideItsDestination() {
    #expect(
      PartFile.url(for: URL(fileURLWithPath: "/tmp/a b.iso")).path == "/tmp/a b.iso.part")
  }

  @Test func openingKeepsTheFirstBytesAndWritesAfterThem() throws {
    let folder = try TemporaryFolder()
    let part = folder.url.appendingPathComponent("new/folder/f.part")
    #expect(PartFile.size(of: part) == 0)
    let created = try PartFile.open(part, keeping: 0)
    try created.write(contentsOf: content(1000))
    try created.close()
    #expect(PartFile.size(of: part) == 1000)

    let resumed = try PartFile.open(part, keeping: 400)
    try resumed.write(contentsOf: Data("tail".utf8))
    try resumed.close()
    #expect(try Data(contentsOf: part) == content(1000).prefix(400) + Data("tail".utf8))
  }
}
