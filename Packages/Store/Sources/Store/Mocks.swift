import Synchronization
import Unimplemented

extension Store {
  /// A store that keeps its values in memory, starting with `initial`.
  public static func inMemory(_ initial: [Key: Value] = [:]) -> Store {
    let values = Mutex(initial)
    return Store(
      load: { key in values.withLock { $0[key] } },
      save: { key, value in values.withLock { $0[key] = value } },
      delete: { key in _ = values.withLock { $0.removeValue(forKey: key) } },
      update: { key, transform in
        try values.withLock { values in
          let updated = try transform(values[key])
          values[key] = updated
          return updated
        }
      }
    )
  }

  /// A store whose every endpoint throws and is reported (see `Unimplemented`). Override
  /// the endpoints a test expects to be called.
  public static var failing: Store {
    Store(
      load: { _ in throw unimplemented("Store.load") },
      save: { _, _ in throw unimplemented("Store.save") },
      delete: { _ in throw unimplemented("Store.delete") },
      update: { _, _ in throw unimplemented("Store.update") }
    )
  }
}
