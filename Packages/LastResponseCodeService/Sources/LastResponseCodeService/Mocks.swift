import Foundation
import Synchronization
import Unimplemented

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

  /// A service that a test did not expect to be used: every endpoint throws and is reported
  /// (see `Unimplemented`).
  public static let failing = LastResponseCodeService(
    load: { throw unimplemented("LastResponseCodeService.load") },
    update: { _ in throw unimplemented("LastResponseCodeService.update") },
    clear: { throw unimplemented("LastResponseCodeService.clear") }
  )
}
