import Foundation

extension ContentService {
  /// A service that always hands out `code`.
  public static func succeeding(with code: UUID) -> ContentService {
    ContentService { code }
  }

  /// A service whose server cannot be reached.
  public static let unreachable = ContentService { throw ContentServiceMockError.unreachable }

  /// A service that a test did not expect to be used: every call throws.
  public static let failing = ContentService {
    throw ContentServiceMockError.unexpectedCall("fetchResponseCode")
  }
}

/// The errors thrown by the mock configurations.
public enum ContentServiceMockError: Error, Equatable, CustomStringConvertible {
  case unreachable
  case unexpectedCall(String)

  public var description: String {
    switch self {
    case .unreachable: return "the server is unreachable"
    case .unexpectedCall(let endpoint):
      return "ContentService.\(endpoint) was called, but no test expected it"
    }
  }
}
