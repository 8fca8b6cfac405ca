import CounterService
import CounterStore

extension CounterService {
  /// The counter of successful fetches, kept in `store` under `CounterStore.timesFetchedKey`.
  /// `increment` is one atomic read-modify-write of the store.
  public static func live(store: CounterStore) -> CounterService {
    let key = CounterStore.timesFetchedKey
    return CounterService(
      count: { try await store.load(key) },
      increment: {
        let count = try await store.update(key) { ($0 ?? 0) + 1 }
        return count ?? 0
      },
      reset: { try await store.delete(key) }
    )
  }
}
