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

    // Kept whole, as a segmented download keeps it: nothing cut, written after its end.
    let whole = try PartFile.open(part, keeping: 404)
    try whole.write(contentsOf: Data("!".utf8))
    try whole.close()
    #expect(try Data(contentsOf: part) == content(1000).prefix(400) + Data("tail!".utf8))
  }

  @Test func aPartFileOpenElsewhereIsRefusedUntilItIsClosed() throws {
    let folder = try TemporaryFolder()
    let part = folder.file("f.part")
    let first = try PartFile.open(part).handle
    #expect(throws: DownloadFileError.self) { _ = try PartFile.open(part) }
    try first.close()
    let second = try PartFile.open(part).handle
    try second.close()
  }

  @Test func aPartFileIsTakenOnlyWhenItIsTheDownloadsOwnOrEmpty() throws {
    let folder = try TemporaryFolder()
    let part = folder.file("f.part")
    #expect(PartFile.refusal(of: part, recorded: nil) == nil)
    try Data().write(to: part)
    #expect(PartFile.refusal(of: part, recorded: nil) == nil)
    try Data("notes".utf8).write(to: part)
    let identity = try #require(PartFile.status(of: part)?.identity)
    #expect(PartFile.refusal(of: part, recorded: identity) == nil)
    #expect(PartFile.refusal(of: part, recorded: nil)?.contains("is not this download's") == true)
    let other = FileIdentity(device: identity.device, inode: identity.inode + 1)
    #expect(PartFile.refusal(of: part, recorded: other) != nil)
  }

  @Test func aSecondNameOfAnEmptyPartFileIsStillRefused() throws {
    let folder = try TemporaryFolder()
    let outside = folder.file("outside")
    try Data().write(to: outside)
    try FileManager.default.linkItem(at: outside, to: folder.file("f.part"))
    #expect(throws: DownloadFileError.self) { _ = try PartFile.open(folder.file("f.part")) }
  }
}
