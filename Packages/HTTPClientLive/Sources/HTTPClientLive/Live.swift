import CCurl
import Foundation
import HTTPClient

extension HTTPClient {
  /// HTTP through libcurl: each request runs on a thread of its own, and the requests of one
  /// client share their connections, TLS sessions, name lookups and cookies. HTTP/2 when a TLS server
  /// offers it; only http and https, redirects included.
  public static func live(configuration: HTTPConfiguration = HTTPConfiguration()) -> HTTPClient {
    _ = globalSetup
    let share = CurlShare(cookies: configuration.cookies)
    return HTTPClient { request, receiver in
      let transfer = CurlTransfer(
        request: request, receiver: receiver, configuration: configuration, share: share)
      try await withTaskCancellationHandler {
        try await transfer.run()
      } onCancel: {
        transfer.stop()
      }
    }
  }
}

/// `curl_global_init`, once, before the first handle.
private let globalSetup: Void = {
  curl_global_init(Int(CURL_GLOBAL_ALL))
}()
