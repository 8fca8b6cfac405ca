import DownloadClient
import Foundation

/// A download as aria2's `tellStatus` describes it: its numbers written as strings, one file,
/// and its URIs.
public struct Aria2Status: Sendable, Equatable {
  /// aria2's states.
  public enum State: String, Sendable {
    case active, waiting, paused, error, complete, removed

    /// The state aria2 calls `status`.
    public init(_ status: DownloadStatus) {
      switch status {
      case .queued: self = .waiting
      case .running, .retrying, .waitingForNetwork: self = .active
      case .paused: self = .paused
      case .completed: self = .complete
      case .failed: self = .error
      }
    }
  }

  public var gid: String
  public var status: State
  public var totalLength: Int64
  public var completedLength: Int64
  public var downloadSpeed: Int64
  public var connections: Int
  /// The folder of the file.
  public var dir: String
  /// The file's path; empty while its name is not decided.
  public var path: String
  public var uris: [String]
  /// aria2's number of the failure (`DownloadError.aria2Code`), 0 when there is none.
  public var errorCode: Int
  public var errorMessage: String

  public init(
    gid: String, status: State, totalLength: Int64 = 0, completedLength: Int64 = 0,
    downloadSpeed: Int64 = 0, connections: Int = 0, dir: String = "", path: String = "",
    uris: [String] = [], errorCode: Int = 0, errorMessage: String = ""
  ) {
    self.gid = gid
    self.status = status
    self.totalLength = totalLength
    self.completedLength = completedLength
    self.downloadSpeed = downloadSpeed
    self.connections = connections
    self.dir = dir
    self.path = path
    self.uris = uris
    self.errorCode = errorCode
    self.errorMessage = errorMessage
  }

  /// The status of `download`, received at `bytesPerSecond`, in `folder` unless its file
  /// says; `error` is the failure of a failed one, when known.
  public init(
    _ download: Download, bytesPerSecond: Double = 0, folder: URL, error: DownloadError? = nil
  ) {
    let file = download.destination ?? download.request.destination
    let state = State(download.status)
    var errorMessage = ""
    if case .failed(let reason) = download.status { errorMessage = reason }
    self.init(
      gid: GID.of(download.id), status: state,
      totalLength: download.expectedBytes ?? download.request.expectedSize ?? 0,
      completedLength: download.receivedBytes,
      downloadSpeed: state == .active ? Int64(bytesPerSecond.rounded()) : 0,
      connections: download.status == .running ? 1 : 0,
      dir: (file?.deletingLastPathComponent() ?? download.request.folder ?? folder).path,
      path: file?.path ?? "",
      uris: ([download.request.url] + download.request.mirrors).map(\.absoluteString),
      errorCode: state == .error ? Int(error?.aria2Code ?? 1) : 0,
      errorMessage: errorMessage)
  }

  /// Whether the URIs were tried, as aria2 says of them: once the download ran.
  private var urisUsed: Bool {
    (status != .waiting && status != .paused) || completedLength > 0
  }

  /// The status as aria2 writes it, with only `keys` when given.
  public func value(keys: [String]? = nil) -> JSONValue {
    let length = String(totalLength)
    let file: JSONValue = .object([
      "index": "1", "path": .string(path), "length": .string(length),
      "completedLength": .string(String(completedLength)), "selected": "true",
      "uris": .array(
        uris.map {
          .object(["uri": .string($0), "status": urisUsed ? "used" : "waiting"])
        }
      ),
    ])
    var object: [String: JSONValue] = [
      "gid": .string(gid), "status": .string(status.rawValue), "totalLength": .string(length),
      "completedLength": .string(String(completedLength)), "uploadLength": "0",
      "downloadSpeed": .string(String(downloadSpeed)), "uploadSpeed": "0",
      "connections": .string(String(connections)), "numPieces": "1",
      "pieceLength": .string(length), "dir": .string(dir), "files": .array([file]),
    ]
    if status == .error || status == .complete || status == .removed {
      object["errorCode"] = .string(String(errorCode))
      object["errorMessage"] = .string(errorMessage)
    }
    if let keys { object = object.filter { keys.contains($0.key) } }
    return .object(object)
  }

  /// The status an aria2 `tellStatus` answer holds; nil when it holds none.
  public init?(_ value: JSONValue) {
    guard let gid = value["gid"]?.string,
      let state = value["status"]?.string.flatMap(State.init(rawValue:))
    else { return nil }
    let file = value["files"]?.array?.first
    self.init(
      gid: gid, status: state,
      totalLength: Int64(value["totalLength"]?.integer ?? 0),
      completedLength: Int64(value["completedLength"]?.integer ?? 0),
      downloadSpeed: Int64(value["downloadSpeed"]?.integer ?? 0),
      connections: value["connections"]?.integer ?? 0,
      dir: value["dir"]?.string ?? "",
      path: file?["path"]?.string ?? "",
      uris: file?["uris"]?.array?.compactMap { $0["uri"]?.string } ?? [],
      errorCode: value["errorCode"]?.integer ?? 0,
      errorMessage: value["errorMessage"]?.string ?? "")
  }
}
