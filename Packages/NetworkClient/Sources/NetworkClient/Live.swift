import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension NetworkClient {
  /// A client over `session`. The default session caches nothing, so every request reaches
  /// the server.
  public static func live(session: URLSession = .uncached) -> NetworkClient {
    NetworkClient { request in try await session.data(for: request) }
  }
}

extension URLSession {
  /// An ephemeral session with no URL cache and a 30 s idle timeout.
  public static let uncached: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.timeoutIntervalForRequest = 30
    return URLSession(configuration: configuration)
  }()
}
