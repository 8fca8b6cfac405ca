import DownloadClient
import Foundation

/// A song's cover art on disk: `<id>.<extension>`, the extension following the image's
/// content (PNG, JPEG, GIF, WebP) whatever its URL says.
struct ArtFile {
  let id: String
  let url: URL
  let folder: URL

  /// The image formats by extension, each with a test of the bytes its files start with.
  private static let formats: [(fileExtension: String, matches: @Sendable (Data) -> Bool)] = [
    ("png", { $0.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) }),
    ("jpg", { $0.starts(with: [0xFF, 0xD8, 0xFF]) }),
    ("gif", { $0.starts(with: Data("GIF8".utf8)) }),
    (
      "webp",
      { $0.starts(with: Data("RIFF".utf8)) && $0.dropFirst(8).starts(with: Data("WEBP".utf8)) }
    ),
  ]

  /// Where the download goes: under the extension the URL suggests (`.png` when it names no
  /// image format), renamed by `nameByContent` once it is complete.
  var download: URL {
    let suggested =
      url.pathExtension.lowercased() == "jpeg" ? "jpg" : url.pathExtension.lowercased()
    return file(Self.formats.contains { $0.fileExtension == suggested } ? suggested : "png")
  }

  /// Whether an image of the song is there already, under any of the extensions.
  var exists: Bool {
    Self.formats.contains { FileManager.default.fileExists(atPath: file($0.fileExtension).path) }
  }

  /// Renames a complete download to the extension its first bytes call for, and says so. A
  /// file that is no image is removed (the queue fetches it again next time) and is an error.
  func nameByContent() throws {
    guard let handle = FileHandle(forReadingAtPath: download.path) else { return }
    let head = (try? handle.read(upToCount: 16)) ?? Data()
    try? handle.close()
    guard let format = Self.formats.first(where: { $0.matches(head) }) else {
      try? FileManager.default.removeItem(at: download)
      throw failure(
        "the art of song \(id) at \(url.absoluteString) is not an image (PNG, JPEG, GIF or WebP)")
    }
    let named = file(format.fileExtension)
    guard named != download else { return }
    do {
      try FileManager.default.moveItem(at: download, to: named)
    } catch {
      throw failure("cannot rename \(download.path): \(error.localizedDescription)")
    }
    Terminal.writeError(
      "fetcher: \(download.lastPathComponent) holds a \(format.fileExtension.uppercased()) "
        + "image: renamed \(named.lastPathComponent)\n")
  }

  private func file(_ fileExtension: String) -> URL {
    folder.appendingPathComponent((FileName.sanitised(id) ?? "song") + "." + fileExtension)
  }
}
