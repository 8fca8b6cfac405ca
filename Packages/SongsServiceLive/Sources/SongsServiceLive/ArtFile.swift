import DownloadClient
import Foundation

/// A song's cover art on disk: `<id>.<extension>`, the extension following the image's
/// content (PNG, JPEG, GIF, WebP) whatever its URL says.
public struct ArtFile: Sendable {
  public let id: String
  public let url: URL
  public let folder: URL

  public init(id: String, url: URL, folder: URL) {
    self.id = id
    self.url = url
    self.folder = folder
  }

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

  /// The extension of the image format whose files start with `head` (`png`, `jpg`, `gif`,
  /// `webp`), nil when it is none of them.
  public static func imageExtension(of head: Data) -> String? {
    formats.first { $0.matches(head) }?.fileExtension
  }

  /// Where the download goes: under the extension the URL suggests (`.png` when it names no
  /// image format), renamed by `nameByContent` once it is complete.
  public var download: URL {
    let suggested =
      url.pathExtension.lowercased() == "jpeg" ? "jpg" : url.pathExtension.lowercased()
    return file(Self.formats.contains { $0.fileExtension == suggested } ? suggested : "png")
  }

  /// Whether an image of the song is there already, under any of the extensions.
  public var exists: Bool {
    Self.formats.contains { FileManager.default.fileExists(atPath: file($0.fileExtension).path) }
  }

  /// Renames a complete download to the extension its first bytes call for; the new file,
  /// or nil when there is no download or its name is right. A file that is no image is
  /// removed (the queue fetches it again next time) and is an error.
  public func nameByContent() throws(ArtFileError) -> URL? {
    guard let handle = FileHandle(forReadingAtPath: download.path) else { return nil }
    let head = (try? handle.read(upToCount: 16)) ?? Data()
    try? handle.close()
    guard let fileExtension = Self.imageExtension(of: head) else {
      try? FileManager.default.removeItem(at: download)
      throw .notAnImage(id: id, url: url)
    }
    let named = file(fileExtension)
    guard named != download else { return nil }
    do {
      try FileManager.default.moveItem(at: download, to: named)
    } catch {
      throw .cannotRename(path: download.path, reason: error.localizedDescription)
    }
    return named
  }

  private func file(_ fileExtension: String) -> URL {
    folder.appendingPathComponent((FileName.sanitised(id) ?? "song") + "." + fileExtension)
  }
}

/// Why a song's art could not be named by its content.
public enum ArtFileError: Error, Equatable, CustomStringConvertible {
  case notAnImage(id: String, url: URL)
  case cannotRename(path: String, reason: String)

  public var description: String {
    switch self {
    case .notAnImage(let id, let url):
      return
        "the art of song \(id) at \(url.absoluteString) is not an image (PNG, JPEG, GIF or WebP)"
    case .cannotRename(let path, let reason):
      return "cannot rename \(path): \(reason)"
    }
  }
}
