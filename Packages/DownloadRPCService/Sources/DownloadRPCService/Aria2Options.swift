import ChecksumTypes
import DownloadClient
import DownloadFeature
import DownloadRPC
import Foundation

/// The options of an aria2 `addUri` or `addMetalink` call that a download takes: `dir`, `out`,
/// `checksum`, `max-download-limit`, `split` and `max-connection-per-server`, `header` and
/// `pause`, and fetcher's own `fetcher.join`. Other options are ignored, as front ends send
/// many that mean nothing here.
public struct Aria2Options: Sendable, Equatable {
  /// The download's folder, inside the daemon's folder.
  public var folder: URL
  /// The daemon's folder.
  public var root: URL
  /// The file's name or path, inside `folder`.
  public var out: String?
  /// `out` inside `folder`.
  public var destination: URL? { out.map { DownloadPlan.path($0, in: folder) } }
  public var checksum: FileChecksum?
  public var bytesPerSecond: Int64?
  /// The most connections the download is fetched over: the lower of `split` and
  /// `max-connection-per-server`, which are one number here (every connection of a download
  /// but its mirrors' goes to one server).
  public var connections: Int?
  /// Added paused (`pause=true`), to wait for `unpause`.
  public var paused = false
  /// The download of the same URL and destination is gone on with, when the queue has one
  /// (`fetcher.join=true`, as `DownloadClient.remote` adds), instead of another added beside
  /// it, as aria2c adds one at every call.
  public var joins = false
  public var headers: [String: String] = [:]

  /// The options of `value` (an object of strings), with `root` the daemon's folder, which a
  /// relative `dir` is in, and `folder` the one of a call without `dir` (`root` unless said):
  /// a `dir` or `out` that leaves `root` is refused unless `anyFolder`.
  public init(_ value: JSONValue?, root: URL, folder: URL? = nil, anyFolder: Bool = false)
    throws(RPCError)
  {
    let values = OptionValues(value)
    let root = root.standardizedFileURL
    self.root = root
    self.folder = folder?.standardizedFileURL ?? root
    if let dir = try values.text("dir") {
      self.folder =
        (dir.hasPrefix("/") ? URL(fileURLWithPath: dir) : root.appendingPathComponent(dir))
        .standardizedFileURL
    }
    if let out = try values.text("out") {
      guard !out.hasPrefix("/"), !out.split(separator: "/").contains("..") else {
        throw .failure("out: a file name inside dir, not \(out)")
      }
      self.out = out
    }
    // The daemon's own folder needs no look at the disk: most calls name no other.
    let named = [self.folder == root ? nil : self.folder, destination].compactMap { $0 }
    if !anyFolder {
      for path in named where !Self.isInside(path, root) {
        throw .failure("\(path.path) is outside the daemon's folder \(root.path)")
      }
    }
    if let checksum = try values.text("checksum") {
      guard let parsed = FileChecksum(checksum) else {
        throw .failure(
          "checksum: TYPE=HEX, TYPE one of \(FileChecksum.typeNames), not \(checksum)")
      }
      self.checksum = parsed
    }
    if let bytes = try values.bytes("max-download-limit") {
      bytesPerSecond = bytes == 0 ? nil : bytes
    }
    paused = try values.flag("pause") ?? false
    joins = try values.flag("fetcher.join") ?? false
    for key in ["split", "max-connection-per-server"] {
      guard let number = try values.count(key) else { continue }
      connections = min(connections ?? number, number)
    }
    let header = values.options["header"]
    let lines = header?.array?.compactMap(\.string) ?? header?.string.map({ [$0] }) ?? []
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else {
        throw .failure("header: NAME: VALUE, not \(line)")
      }
      // A line break would end the header and begin another, or the body: refused here, at
      // once, not retried as a request that libcurl will not send.
      guard !line.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
        throw .failure("header: a header is one line, without CR, LF or NUL")
      }
      headers[String(line[..<colon])] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
  }

  /// The planner of the downloads these options add.
  public var plan: DownloadPlan {
    DownloadPlan(folder: folder, workingDirectory: folder, headers: headers)
  }

  /// The download of `uris`, the first the URL and the others its mirrors.
  public func request(_ uris: [String]) throws(DownloadPlan.Refusal) -> DownloadRequest {
    var request = try plan.request(
      uris[0], mirrors: Array(uris.dropFirst()), out: out, checksum: checksum)
    // The daemon's own folder is its downloads' by default: only another is kept with one.
    if request.destination == nil, folder != root { request.folder = folder }
    if let limits { request.limits = limits }
    request.startsPaused = paused
    request.addsAnother = !joins
    return request
  }

  /// The limits these options give a download (its rate and connections); nil for none.
  public var limits: DownloadLimits? {
    guard bytesPerSecond != nil || connections != nil else { return nil }
    var limits = DownloadLimits(bytesPerSecond: bytesPerSecond)
    limits.connections = connections
    return limits
  }

  /// Whether `path` is `root` or inside it, the links on the way followed as far as the
  /// folders exist.
  static func isInside(_ path: URL, _ root: URL) -> Bool {
    let resolvedRoot = resolved(root)
    let resolvedPath = resolved(path)
    return resolvedPath == resolvedRoot || resolvedPath.hasPrefix(resolvedRoot + "/")
  }

  /// `url` with the links of its longest existing part followed, and the rest after it.
  private static func resolved(_ url: URL) -> String {
    var existing = url.standardizedFileURL
    var rest: [String] = []
    // attributesOfItem does not follow a last link: a link that leads nowhere is there.
    while existing.path != "/",
      (try? FileManager.default.attributesOfItem(atPath: existing.path)) == nil
    {
      rest.insert(existing.lastPathComponent, at: 0)
      existing.deleteLastPathComponent()
    }
    return rest.reduce(existing.resolvingSymlinksInPath()) { $0.appendingPathComponent($1) }.path
  }

  /// aria2's size: bytes, or a number of KiB or MiB with K or M after it.
  static func bytes(_ text: String) -> Int64? {
    let units: [Character: Int64] = ["k": 1024, "m": 1024 * 1024]
    guard let last = text.lowercased().last else { return nil }
    let unit = units[last]
    guard let number = Int64(unit == nil ? text : String(text.dropLast())), number >= 0 else {
      return nil
    }
    return number * (unit ?? 1)
  }
}
