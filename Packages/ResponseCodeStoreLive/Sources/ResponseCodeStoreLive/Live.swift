import Foundation
import ResponseCodeStore
import Store
import StoreLive

extension Store where Key == String, Value == UUID {
  /// The response code store kept in `response-codes.json` inside `directory`.
  public static func live(directory: URL) -> ResponseCodeStore {
    .file(at: directory.appendingPathComponent("response-codes.json"))
  }
}
