import Synchronization

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

  /// A store whose every endpoint throws `UnexpectedStoreCall`. Override the endpoints a test
  /// expects to be called.
  public static var failing: Store {
    Store(
      load: { _ in throw UnexpectedStoreCall(endpoint: "load") },
      save: { _, _ in throw UnexpectedStoreCall(endpoint: "save") },
      delete: { _ in throw UnexpectedStoreCall(endpoint: "delete") },
      update: { _, _ in throw UnexpectedStoreCall(endpoint: "update") }
    )
  }
}
