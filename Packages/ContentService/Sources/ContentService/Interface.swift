import Foundation

/// Fetches response codes from the server: asks the root for the next path, then fetches the
/// response code from that path.
public struct ContentService: Sendable {
  /// Runs one exchange with the server and returns the response code it handed out.
  public var fetchResponseCode: @Sendable () async throws -> UUID

  public init(fetchResponseCode: @escaping @Sendable () async throws -> UUID) {
    self.fetchResponseCode = fetchResponseCode
  }
}

/// The root's answer: where to fetch the response code. Decoded from `{"next_path": "…"}`.
public struct NextPath: Codable, Equatable, Sendable {
  public var nextPath: String

  public init(nextPath: String) {
    self.nextPath = nextPath
  }

  enum CodingKeys: String, CodingKey {
    case nextPath = "next_path"
  }
}

/// The next path's answer. Decoded from `{"path": "…", "response_code": "<uuid>"}`.
public struct ResponseCodeReply: Codable, Equatable, Sendable {
  public var path: String
  public var responseCode: UUID

  public init(path: String, responseCode: UUID) {
    self.path = path
    self.responseCode = responseCode
  }

  enum CodingKeys: String, CodingKey {
    case path
    case responseCode = "response_code"
  }
}

/// Failures of the content service that are not network failures.
public enum ContentServiceError: Error, Equatable, Sendable {
  /// The configured root URL is not an absolute http(s) URL.
  case invalidRootURL(String)
  /// The server's `next_path` is not an absolute http(s) URL.
  case invalidNextPath(String)
}

extension ContentServiceError: CustomStringConvertible, LocalizedError {
  public var description: String {
    switch self {
    case .invalidRootURL(let url):
      return "invalid root URL \"\(url)\": expected an absolute http or https URL"
    case .invalidNextPath(let path):
      return "the server sent an invalid next path \"\(path)\""
    }
  }

  public var errorDescription: String? { description }
}
