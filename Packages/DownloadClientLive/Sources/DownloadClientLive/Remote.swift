import DownloadClient
import DownloadRPC
import Foundation
import HTTPClient

extension DownloadClient {
  /// The download manager of a daemon that speaks aria2's JSON-RPC at `url` (`fetcher
  /// daemon`'s `http://127.0.0.1:6800/jsonrpc`), over `http`, giving `secret` with each call:
  /// the same interface as the manager in this process, whose downloads go on when this
  /// process ends. `events` asks the daemon for its downloads when it notifies a change, and
  /// every `interval` on `clock` while one transfers (`RemoteEvents`), and says what changed.
  public static func remote<C: Clock<Duration>>(
    url: URL, secret: String?, http: HTTPClient, clock: C,
    every interval: Duration = .milliseconds(500)
  ) -> DownloadClient {
    let rpc = RPCConnection(url: url, secret: secret, http: http)
    return DownloadClient(
      start: { request in
        let gid = try await rpc.call("aria2.addUri", RPCConnection.addURI(request))
        guard let id = gid.string.map(GID.id) else {
          throw DownloadError.unrecoverable("the daemon answered addUri with \(gid)")
        }
        return try await rpc.list().first { $0.download.id == id }?.download
          ?? { throw DownloadError.unknownDownload(id) }()
      },
      pause: { id in try await rpc.change("aria2.pause", id) },
      resume: { id in try await rpc.change("aria2.unpause", id) },
      cancel: { id in try await rpc.cancel(id) },
      cancelAll: {
        for entry in try await rpc.list() { try await rpc.cancel(entry.download.id) }
      },
      list: { try await rpc.list().map(\.download) },
      events: { RemoteEvents.stream(rpc: rpc, clock: clock, interval: interval) })
  }

  /// The daemon's manager at `url`, its progress asked for every half second.
  public static func remote(url: URL, secret: String?, http: HTTPClient) -> DownloadClient {
    remote(url: url, secret: secret, http: http, clock: ContinuousClock())
  }
}
