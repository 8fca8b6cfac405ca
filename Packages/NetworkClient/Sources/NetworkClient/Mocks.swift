import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension NetworkClient {
  /// A client whose every request fails, naming the request: for tests that must not touch
  /// the network.
  public static let failing = NetworkClient { request in
    throw NetworkError.transport(
      url: request.url?.absoluteString ?? "(no URL)",
      reason: "NetworkClient.failing: this test did not expect a request")
  }
}
