import ContentService
import Foundation
import HTTPClient
import NetworkClient

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension ContentService {
  /// The service that talks to the server at `rootURL` through `client`.
  ///
  /// The server hands out one valid path at a time, so another client asking the root in
  /// between makes the second request fail with 400. Such a failure, and one that may heal by
  /// the repository's one rule (`NetworkError.isRetryable`: a dropped connection, a timeout,
  /// 408, 429, 5xx), is retried as a whole exchange up to `maxRetries` times, after a short
  /// random pause on `clock` that grows with each attempt; every other failure is thrown at
  /// once.
  public static func live(
    rootURL: String,
    client: NetworkClient,
    maxRetries: Int = 3,
    clock: any Clock<Duration> = ContinuousClock()
  ) -> ContentService {
    ContentService {
      guard let root = httpURL(rootURL) else { throw ContentServiceError.invalidRootURL(rootURL) }
      var attempt = 0
      while true {
        do {
          return try await exchange(root: root, client: client)
        } catch let error as NetworkError
          where (error.status == 400 || error.isRetryable) && attempt < maxRetries
        {
          attempt += 1
          try await clock.sleep(for: .milliseconds(Int.random(in: 10...50) * attempt))
        }
      }
    }
  }

  private static func exchange(root: URL, client: NetworkClient) async throws -> UUID {
    let next = try await client.decoded(NextPath.self, for: jsonRequest(root))
    guard let url = httpURL(next.nextPath) else {
      throw ContentServiceError.invalidNextPath(next.nextPath)
    }
    return try await client.decoded(ResponseCodeReply.self, for: jsonRequest(url)).responseCode
  }

  private static func jsonRequest(_ url: URL) -> URLRequest {
    var request = URLRequest(url: url)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    return request
  }

  /// `string` as a URL when it is an absolute http or https URL with a host.
  private static func httpURL(_ string: String) -> URL? {
    guard let url = URL(string: string), url.isHTTP else { return nil }
    return url
  }
}
