import Foundation
import Unimplemented

extension ContentService {
  /// A service that always hands out `code`.
  public static func succeeding(with code: UUID) -> ContentService {
    ContentService { code }
  }

  /// A service whose server cannot be reached.
  public static let unreachable = ContentService { throw ContentServiceMockError.unreachable }

  /// A service that a test did not expect to be used: every call throws and is reported
  /// (see `Unimplemented`).
  public static let failing = ContentService {
    throw unimplemented("ContentService.fetchResponseCode")
  }
}

/// The errors thrown by the mock configurations.
public enum ContentServiceMockError: Error, Equatable, CustomStringConvertible {
  case unreachable

  public var description: String { "the server is unreachable" }
}
