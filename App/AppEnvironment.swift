import ContentService
import ContentServiceLive
import CounterService
import CounterServiceLive
import CounterStoreLive
import DataFetchFeature
import DownloadClient
import DownloadClientLive
import Foundation
import HTTPClient
import HTTPClientLive
import LastResponseCodeService
import LastResponseCodeServiceLive
import NetworkClient
import Reachability
import ReachabilityLive
import ResponseCodeStoreLive
import SongsService
import SongsServiceLive

/// The composition root: every live configuration the commands use, built here and nowhere
/// else. A command builds one environment from its options and takes what it needs.
struct AppEnvironment {
  var content: ContentService
  var counter: CounterService
  var lastResponseCode: LastResponseCodeService
  var reachability: Reachability
  /// The fetch server's host and port, when its root URL names one.
  var server: ReachabilityHost?
  var songs: SongsService
  /// The download manager with `configuration`, its queue in the state folder.
  var downloads: (_ configuration: DownloadConfiguration) -> DownloadClient
  /// A download manager whose queue is `name` in the state folder, apart from the user's: the
  /// downloads a command makes for itself (a cached log, cover art), which `downloads list`
  /// does not show.
  var ownDownloads: (_ name: String, _ configuration: DownloadConfiguration) -> DownloadClient
  /// Looks for a running daemon (`fetcher daemon`): its download manager over its RPC, nil
  /// when none runs. Looked for when asked, so that commands that never ask (fetch, analyze)
  /// do not open the daemon's file.
  var runningDaemon: () -> DownloadClient?

  /// The running daemon's download manager (see `runningDaemon`).
  var daemon: DownloadClient? { runningDaemon() }

  /// The fetcher screen's view model over these services.
  var fetchViewModel: DataFetchViewModel {
    DataFetchViewModel(
      content: content, counter: counter, lastResponseCode: lastResponseCode,
      reachability: reachability, server: server)
  }

  /// The download manager for commands that only read or change the queue: the daemon's
  /// when one runs, else one with the default configuration.
  var queue: DownloadClient {
    runningDaemon() ?? downloads(DownloadConfiguration(outputDirectory: Directories.current))
  }

  /// The live environment: HTTP through `http` (requests of the fetch and songs services
  /// also carry `headers`, their secrets only to the origin of `named`, the URL the user gave,
  /// which is `rootURL` unless said; each of their exchanges ends within `maxTime`;
  /// downloads carry their own), state files in the state folder, and the fetch server at
  /// `rootURL`.
  static func live(
    http: HTTPClient = .configured(), headers: HTTPHeaders = [:], named: URL? = nil,
    rootURL: String = ServerOptions.defaultRootURL, retries: Int = ServerOptions.defaultRetries,
    maxTime: Duration = ExchangeTimeOptions.defaultMaxTime.duration
  ) -> AppEnvironment {
    let state = Directories.state
    let origin = named ?? URL(string: rootURL) ?? URL(fileURLWithPath: "/")
    let network = NetworkClient.live(
      http: http.adding(headers, sendingSecretsTo: origin), timeLimit: maxTime)
    let reachability = Reachability.live()
    /// The download manager with `configuration`, its queue in `directory`. It waits for the
    /// network, not for a server that refuses: that one fails after the retries.
    @Sendable func downloads(_ configuration: DownloadConfiguration, queueIn directory: URL)
      -> DownloadClient
    {
      .live(
        configuration: configuration, stateDirectory: directory, http: http,
        reachability: .network())
    }
    return AppEnvironment(
      content: .live(rootURL: rootURL, client: network, maxRetries: retries),
      counter: .live(store: .live(directory: state)),
      lastResponseCode: .live(store: .live(directory: state)),
      reachability: reachability,
      server: URL(string: rootURL).flatMap(ReachabilityHost.init(url:)),
      songs: .live(client: network),
      downloads: { downloads($0, queueIn: state) },
      ownDownloads: { downloads($1, queueIn: state.appendingPathComponent($0)) },
      runningDaemon: {
        DaemonFile.running().map { daemon in
          // Through the daemon's own socket, never a port or the environment's proxy.
          var connection = HTTPConfiguration(proxy: "")
          connection.unixSocket = DaemonFile.socket.path
          return .remote(
            url: DaemonFile.socketURL, secret: daemon.secret, http: .live(configuration: connection)
          )
        }
      })
  }
}

extension HTTPClient {
  /// The live client as curl's options configure it; without a CA file, the one
  /// `CURL_CA_BUNDLE` or `SSL_CERT_FILE` names, if any, and without a proxy, the proxies of
  /// the environment (as curl reads them).
  static func configured(_ configuration: HTTPConfiguration = HTTPConfiguration()) -> HTTPClient {
    var configuration = configuration
    configuration.caFile = configuration.caFile ?? HTTPConfiguration.caFile()
    return .live(configuration: configuration)
  }
}
