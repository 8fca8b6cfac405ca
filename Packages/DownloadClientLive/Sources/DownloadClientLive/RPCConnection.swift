import DownloadClient
import DownloadRPC
import Foundation
import HTTPClient
import Synchronization

/// Calls of a daemon's JSON-RPC, over HTTP POST; its failures as `DownloadError`s.
struct RPCConnection: Sendable {
  let url: URL
  let secret: String?
  let http: HTTPClient

  /// The result of `method` with `params` (the secret goes first).
  func call(_ method: String, _ params: [JSONValue]) async throws -> JSONValue {
    var request = HTTPRequest(
      method: "POST", url: url, headers: ["Content-Type": "application/json"])
    let token = secret.map { [JSONValue.string("token:" + $0)] } ?? []
    request.body = RPCRequest(id: "fetcher", method: method, params: token + params).value.json
    let head: HTTPResponseHead
    let body: Data
    do {
      (head, body) = try await http.data(for: request)
    } catch let error as HTTPError {
      throw DownloadError.transport("the daemon at \(url.absoluteString): \(error)")
    }
    guard head.status == 200, let answer = try? JSONValue(json: body) else {
      throw DownloadError.unrecoverable(
        "the daemon at \(url.absoluteString) answered HTTP \(head.status), not JSON-RPC")
    }
    switch RPCResponse.outcome(of: answer) {
    case .success(let result): return result
    case .failure(let error): throw DownloadError.unrecoverable("the daemon: \(error.message)")
    }
  }

  /// The daemon's notifications, as its own socket streams them (`GET /notifications` beside
  /// `/jsonrpc`: one JSON-RPC notification a line, an empty line every 15 s to say it is
  /// there): `subscribed` once the daemon has subscribed this stream (what happens after is
  /// told), then `notified` for every notification. Returns when the stream ends; throws when
  /// the daemon serves none (an older daemon, or a port rather than its socket).
  func listen(
    subscribed: @escaping @Sendable () async -> Void, notified: @escaping @Sendable () -> Void
  )
    async throws
  {
    var request = HTTPRequest(
      url: url.deletingLastPathComponent().appendingPathComponent("notifications"))
    request.idleTimeout = .seconds(45)
    let served = Mutex(false)
    try await http.stream(
      request,
      HTTPReceiver(
        head: { head in
          guard head.status == 200 else { return false }
          served.withLock { $0 = true }
          await subscribed()
          return true
        },
        body: { data in
          // Lines of notifications; the empty ones only say the daemon is there.
          if data.contains(where: { $0 != UInt8(ascii: "\n") }) { notified() }
          return true
        }))
    guard served.withLock({ $0 }) else {
      throw DownloadError.unrecoverable(
        "the daemon at \(url.absoluteString) streams no notifications")
    }
  }

  /// Every download of the daemon, in the order they were added; with `transferring`, only
  /// those that transfer (`RemoteDownload.transfers`).
  func list(transferring: Bool = false) async throws -> [RemoteDownload] {
    let method =
      transferring ? RemoteDownload.listTransferringMethod : RemoteDownload.listMethod
    let result = try await call(method, [])
    do {
      return try (result.array ?? []).map(RemoteDownload.init)
    } catch {
      throw DownloadError.unrecoverable("the daemon's list cannot be read: \(error)")
    }
  }

  /// Calls `method` (pause, unpause) of download `id`, which must be known.
  func change(_ method: String, _ id: DownloadID) async throws {
    guard try await list().contains(where: { $0.download.id == id }) else {
      throw DownloadError.unknownDownload(id)
    }
    _ = try await call(method, [.string(GID.of(id))])
  }

  /// Removes `id`: a download that is not over with `remove`, its result otherwise.
  func cancel(_ id: DownloadID) async throws {
    guard let entry = try await list().first(where: { $0.download.id == id }) else {
      throw DownloadError.unknownDownload(id)
    }
    let method = entry.download.status.hasEnded ? "aria2.removeDownloadResult" : "aria2.remove"
    _ = try await call(method, [.string(GID.of(id))])
  }

  /// The parameters of `addUri` for `request`: its URL and mirrors, and as options its
  /// folder, name, checksum, rate, headers, whether it starts paused and whether it goes on
  /// with the daemon's download of the same URL and destination, as a local one would. Its
  /// other limits are the daemon's.
  static func addURI(_ request: DownloadRequest) -> [JSONValue] {
    var options: [String: JSONValue] = [:]
    if let destination = request.destination {
      options["dir"] = .string(destination.deletingLastPathComponent().path)
      options["out"] = .string(destination.lastPathComponent)
    } else if let folder = request.folder {
      options["dir"] = .string(folder.path)
    }
    if let checksum = request.expectedChecksum { options["checksum"] = .string("\(checksum)") }
    if request.startsPaused { options["pause"] = "true" }
    if !request.addsAnother { options["fetcher.join"] = "true" }
    if let rate = request.limits?.bytesPerSecond {
      options["max-download-limit"] = .string(String(rate))
    }
    if !request.headers.isEmpty {
      options["header"] = .array(
        request.headers.sorted { $0.key < $1.key }.map { .string("\($0.key): \($0.value)") })
    }
    let uris = ([request.url] + request.mirrors).map { JSONValue.string($0.absoluteString) }
    return [.array(uris), .object(options)]
  }
}
