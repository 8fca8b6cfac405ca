import Foundation
import LastResponseCodeService
import ResponseCodeStore

extension LastResponseCodeService {
  /// The last response code, kept in `store` under `ResponseCodeStore.lastResponseCodeKey`.
  public static func live(store: ResponseCodeStore) -> LastResponseCodeService {
    let key = ResponseCodeStore.lastResponseCodeKey
    return LastResponseCodeService(
      load: { try await store.load(key) },
      update: { code in try await store.save(key, code) },
      clear: { try await store.delete(key) }
    )
  }
}
