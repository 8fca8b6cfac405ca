import CounterStore
import Foundation
import Store
import StoreLive

extension Store where Key == String, Value == Int {
  /// The counter store kept in `counters.json` inside `directory`.
  public static func live(directory: URL) -> CounterStore {
    .file(at: directory.appendingPathComponent("counters.json"))
  }
}
