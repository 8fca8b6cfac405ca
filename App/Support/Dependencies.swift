import ContentService
import ContentServiceLive
import CounterService
import CounterServiceLive
import CounterStore
import CounterStoreLive
import DataFetchFeature
import Foundation
import HTTPClient
import LastResponseCodeService
import LastResponseCodeServiceLive
import NetworkClient
import Reachability
import ReachabilityLive
import ResponseCodeStore
import ResponseCodeStoreLive

/// The live configurations, built in one place and handed to the commands.
struct Dependencies {
  var content: ContentService
  var counter: CounterService
  var lastResponseCode: LastResponseCodeService
  var reachability: Reachability
  /// The server's host and port, when its root URL names one.
  var server: ReachabilityHost?

  /// The fetcher screen's view model over these services.
  var viewModel: DataFetchViewModel {
    .live(
      content: content, counter: counter, lastResponseCode: lastResponseCode,
      reachability: reachability, server: server)
  }

  /// The network through `http` and the state files in the state directory.
  static func live(
    rootURL: String = ServerOptions.defaultRootURL, retries: Int = ServerOptions.defaultRetries,
    http: HTTPClient = .fromEnvironment
  ) -> Dependencies {
    let directory = Directories.state
    return Dependencies(
      content: .live(rootURL: rootURL, client: .live(http: http), maxRetries: retries),
      counter: .live(store: .live(directory: directory)),
      lastResponseCode: .live(store: .live(directory: directory)),
      reachability: .live(),
      server: URL(string: rootURL).flatMap(ReachabilityHost.init(url:)))
  }
}
