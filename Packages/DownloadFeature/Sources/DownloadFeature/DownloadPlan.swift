import ChecksumTypes
import DownloadClient
import Foundation
import HTTPClient
import Metalink
import StyleGuide

/// What a user names, turned into downloads: URLs with their mirrors, the entries of aria2c's
/// input file, a Metalink's files. The one planner of the command line and the daemon.
public struct DownloadPlan: Sendable {
  /// The folder of the downloads that name none of their own (`--dir`).
  public var folder: URL
  /// What a relative `dir=` of an input file is relative to: the working directory, as in
  /// aria2c.
  public var workingDirectory: URL
  /// The headers of every request; the secret ones (`HTTPHeaders.isSecret`) go to a
  /// Metalink's URLs only when they have the origin the Metalink came from.
  public var headers: [String: String]

  public init(folder: URL, workingDirectory: URL, headers: [String: String] = [:]) {
    self.folder = folder
    self.workingDirectory = workingDirectory
    self.headers = headers
  }

  /// Why a download could not be planned.
  public struct Refusal: Error, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
  }

  /// The download of `url`, its `mirrors` tried after it, written to `out` (inside `folder`
  /// when relative) or under the name the URL or the server gives.
  public func request(
    _ url: String, mirrors: [String] = [], out: String? = nil, checksum: FileChecksum? = nil
  ) throws(Refusal) -> DownloadRequest {
    var urls: [URL] = []
    for text in [url] + mirrors {
      guard let parsed = URL(string: text), parsed.scheme != nil else {
        throw Refusal("not a URL: \(text.printable)")
      }
      urls.append(parsed)
    }
    return DownloadRequest(
      url: urls[0], destination: out.map { Self.path($0, in: folder) },
      expectedChecksum: checksum, headers: headers, mirrors: Array(urls.dropFirst()))
  }

  /// The downloads of an input file's `entries`: each entry's `dir=` (relative to the working
  /// directory) in place of `folder`, its `out=` inside that.
  public func requests(_ entries: [InputFile.Entry]) throws(Refusal) -> [DownloadRequest] {
    var requests: [DownloadRequest] = []
    for entry in entries {
      var plan = self
      if let dir = entry.dir { plan.folder = Self.path(dir, in: workingDirectory) }
      var request = try plan.request(
        entry.url, mirrors: entry.mirrors, out: entry.out, checksum: entry.checksum)
      if request.destination == nil, entry.dir != nil { request.folder = plan.folder }
      requests.append(request)
    }
    return requests
  }

  /// The downloads of `metalink`'s files in `folder`, the mirrors in `locations` (ISO 3166
  /// codes) first; `origin` is where the Metalink came from (nil for a file), the one origin
  /// the secret headers may go to.
  public func requests(
    _ metalink: Metalink, preferring locations: [String] = [], origin: URL? = nil
  ) throws(MetalinkError) -> [DownloadRequest] {
    var requests: [DownloadRequest] = []
    for file in metalink.files {
      var request = try file.request(in: folder, preferring: locations)
      let trusted = origin.map { request.url.hasSameOrigin(as: $0) } ?? false
      request.headers = headers.filter { trusted || !HTTPHeaders.isSecret($0.key) }
      requests.append(request)
    }
    return requests
  }

  /// `path` as a file URL: as given when absolute, else inside `base`.
  public static func path(_ path: String, in base: URL) -> URL {
    (path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path))
      .standardizedFileURL
  }
}
