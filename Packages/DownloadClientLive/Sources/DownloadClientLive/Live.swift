import DownloadClient
import Foundation
import HTTPClient
import Reachability

extension DownloadClient {
  /// The download manager over `http`, with its queue in `store`. Delays go through
  /// `clock`; `random` (0...1) places each backoff within its jitter band. When a transfer
  /// fails and `reachability` says its host cannot be reached, the download waits for the
  /// host without using up a retry. Give it reachability of the network
  /// (`Reachability.network()` in ReachabilityLive), so that only an offline machine waits
  /// and a server that refuses fails after the retries.
  ///
  /// With `claimsFolder`, processes sharing the store never write the same download: the one
  /// running it holds a lock there, and a cancel from another process stops it (see `Claims`).
  public static func live<C: Clock<Duration>>(
    configuration: DownloadConfiguration,
    store: DownloadStore,
    http: HTTPClient,
    clock: C,
    reachability: Reachability,
    random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
    claimsFolder: URL? = nil
  ) -> DownloadClient {
    let engine = DownloadEngine(
      configuration: configuration, store: store, http: http, clock: clock,
      reachability: reachability, random: random, claims: Claims(folder: claimsFolder))
    if configuration.resumesInterrupted { Task { await engine.resumeInterrupted() } }
    var client = DownloadClient(
      start: { try await engine.start($0) },
      pause: { try await engine.pause($0) },
      resume: { try await engine.resume($0) },
      cancel: { try await engine.cancel($0) },
      cancelAll: { try await engine.cancelAll() },
      list: { try await engine.list() },
      events: { engine.events.subscribe() }
    )
    client.change = { try await engine.change($0) }
    client.lookUp = { try await engine.download($0) }
    client.startEach = { await engine.start($0) }
    client.pauseEach = { try await engine.pause($0) }
    client.resumeEach = { try await engine.resume($0) }
    client.move = { try await engine.move($0, to: $1) }
    client.rename = { try await engine.rename($0, to: $1) }
    return client
  }

  /// The download manager over `http`, with its queue in `downloads.jsonl` in
  /// `stateDirectory` (see `DownloadStore.file`; a `downloads.json` that earlier versions
  /// wrote there is moved into it) and the claims of its running downloads in `claims/`
  /// there.
  public static func live(
    configuration: DownloadConfiguration, stateDirectory: URL, http: HTTPClient,
    reachability: Reachability
  ) -> DownloadClient {
    live(
      configuration: configuration,
      store: .file(
        at: stateDirectory.appendingPathComponent("downloads.jsonl"),
        legacy: stateDirectory.appendingPathComponent("downloads.json")),
      http: http,
      clock: ContinuousClock(),
      reachability: reachability,
      claimsFolder: stateDirectory.appendingPathComponent("claims", isDirectory: true))
  }
}
