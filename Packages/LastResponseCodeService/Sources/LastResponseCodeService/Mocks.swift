import Foundation
import Synchronization

extension LastResponseCodeService {
  /// A last code kept in memory, starting with `initial`.
  public static func inMemory(_ initial: UUID? = nil) -> LastResponseCodeService {
    let code = Mutex(initial)
    return LastResponseCodeService(
      load: { code.withLock { $0 } },
      update: { new in code.withLock { $0 = new } },
      clear: { code.withLock { $0 = nil } }
    )
  }

  /// A service that a test did not expect to be used: every endpoint throws.
  public static let failing = LastResponseCodeService(
    load: { throw UnexpectedLastResponseCodeCall(endpoint: "load") },
    update: { _ in throw UnexpectedLastResponseCodeCall(endpoint: "update") },
    clear: { throw UnexpectedLastResponseCodeCall(endpoint: "clear") }
  )
}

/// Thrown by the endpoints of `LastResponseCodeService.failing`.
public struct UnexpectedLastResponseCodeCall: Error, Equatable, CustomStringConvertible {
  public let endpoint: String

  public init(endpoint: String) {
    self.endpoint = endpoint
  }

  public var description: String {
    "LastResponseCodeService.\(endpoint) was called, but no test expected it"
  }
}
