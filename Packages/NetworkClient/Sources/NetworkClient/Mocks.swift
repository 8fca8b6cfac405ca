import Foundation
import HTTPClient
import Unimplemented

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension NetworkClient {
  /// A client that a test did not expect to be used: every request is reported (see
  /// `Unimplemented`) and fails with a `NetworkError` that no caller retries.
  public static let failing = NetworkClient { request in
    throw NetworkError.transport(
      url: request.url?.absoluteString ?? "(no URL)",
      error: .unimplemented(unimplemented("NetworkClient.send").description))
  }
}
