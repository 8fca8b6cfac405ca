import CounterService
import CounterStore

extension CounterService {
  /// The counter of successful fetches, kept in `store` under `CounterStore.timesFetchedKey`.
  /// `increment` is one atomic read-modify-write of the store. A negative stored count, or
  /// one more than `Int.max`, is a `CounterError`, and the store is left as it was.
  public static func live(store: CounterStore) -> CounterService {
    let key = CounterStore.timesFetchedKey
    return CounterService(
      count: { try await store.load(key).map(checked) },
      increment: {
        let count = try await store.update(key) { stored in
          let (next, overflow) = try checked(stored ?? 0).addingReportingOverflow(1)
          guard !overflow else { throw CounterError.full }
          return next
        }
        return count ?? 0
      },
      reset: { try await store.delete(key) }
    )
  }

  private static func checked(_ count: Int) throws(CounterError) -> Int {
    guard count >= 0 else { throw .negative(count) }
    return count
  }
}
