import CounterService
import CounterServiceLive
import CounterStore
import Store
import Testing

@Suite struct CounterServiceLiveTests {
  @Test func countsInTheStore() async throws {
    let store = CounterStore.inMemory()
    let counter = CounterService.live(store: store)
    #expect(try await counter.count() == nil)
    #expect(try await counter.increment() == 1)
    #expect(try await counter.increment() == 2)
    #expect(try await store.load(CounterStore.timesFetchedKey) == 2)
    try await counter.reset()
    #expect(try await store.load(CounterStore.timesFetchedKey) == nil)
  }

  @Test func continuesFromAStoredCount() async throws {
    let counter = CounterService.live(store: .inMemory([CounterStore.timesFetchedKey: 41]))
    #expect(try await counter.count() == 41)
    #expect(try await counter.increment() == 42)
  }

  @Test func incrementIsOneAtomicUpdate() async throws {
    var store = CounterStore.failing
    store.update = { key, transform in
      #expect(key == CounterStore.timesFetchedKey)
      return try transform(6)
    }
    #expect(try await CounterService.live(store: store).increment() == 7)
  }

  @Test func storeFailuresReachTheCaller() async throws {
    // Each call is an issue of this test (a known one here), besides the error it throws.
    await withKnownIssue {
      await #expect {
        try await CounterService.live(store: .failing).increment()
      } throws: { "\($0)" == "Store.update was called, but no test expected it" }
    }
  }

  @Test func aCountAtItsLargestIsRefusedAndKept() async throws {
    let store = CounterStore.inMemory([CounterStore.timesFetchedKey: Int.max])
    let counter = CounterService.live(store: store)
    await #expect(throws: CounterError.full) { try await counter.increment() }
    #expect(try await store.load(CounterStore.timesFetchedKey) == Int.max)
    #expect(try await counter.count() == Int.max)
  }

  @Test func aNegativeStoredCountIsRefusedAndKept() async throws {
    let store = CounterStore.inMemory([CounterStore.timesFetchedKey: -2])
    let counter = CounterService.live(store: store)
    await #expect(throws: CounterError.negative(-2)) { try await counter.count() }
    await #expect(throws: CounterError.negative(-2)) { try await counter.increment() }
    #expect(try await store.load(CounterStore.timesFetchedKey) == -2)
  }
}
