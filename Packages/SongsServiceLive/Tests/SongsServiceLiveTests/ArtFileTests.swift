import Foundation
import SongsServiceLive
import Testing

@Suite struct ArtFileTests {
  private let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0])
  private let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10])

  /// A folder of its own, removed at the end of the test.
  private func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("ArtFileTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func theFormatIsKnownByTheFirstBytes() {
    #expect(ArtFile.imageExtension(of: png) == "png")
    #expect(ArtFile.imageExtension(of: jpeg) == "jpg")
    #expect(ArtFile.imageExtension(of: Data("GIF89a".utf8)) == "gif")
    #expect(ArtFile.imageExtension(of: Data("RIFF\0\0\0\0WEBPVP8 ".utf8)) == "webp")
    #expect(ArtFile.imageExtension(of: Data("RIFF\0\0\0\0WAVE".utf8)) == nil)
    #expect(ArtFile.imageExtension(of: Data("<html>".utf8)) == nil)
  }

  @Test func aJPEGServedAsPNGIsRenamed() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let art = ArtFile(id: "42", url: URL(string: "http://art.test/a/b.png")!, folder: folder)
    #expect(art.download.lastPathComponent == "42.png")
    #expect(!art.exists)
    try jpeg.write(to: art.download)
    let named = try art.nameByContent()
    #expect(named?.lastPathComponent == "42.jpg")
    #expect(try Data(contentsOf: folder.appendingPathComponent("42.jpg")) == jpeg)
    #expect(art.exists)
    #expect(try art.nameByContent() == nil)  // nothing left under the URL's name
  }

  @Test func aFileThatIsNoImageIsRemovedAndIsAnError() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = URL(string: "http://art.test/x.jpeg")!
    let art = ArtFile(id: "7", url: url, folder: folder)
    #expect(art.download.lastPathComponent == "7.jpg")
    try Data("<html>no</html>".utf8).write(to: art.download)
    #expect(throws: ArtFileError.notAnImage(id: "7", url: url)) { try art.nameByContent() }
    #expect(!FileManager.default.fileExists(atPath: art.download.path))
  }

  /// The id comes from the feed: it never names a file outside the folder.
  @Test func anIdWithFoldersStaysInTheFolder() throws {
    let art = ArtFile(
      id: "../../etc/passwd", url: URL(string: "http://art.test/i")!,
      folder: URL(fileURLWithPath: "/tmp/art"))
    #expect(art.download.path == "/tmp/art/passwd.png")
  }
}
