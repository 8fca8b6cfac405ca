import Store
import Testing
import Unimplemented

@Suite struct InMemoryStoreTests {
  @Test func roundTripsValues() async throws {
    let store = Store<String, Int>.inMemory()
    #expect(try await store.load("a") == nil)
    try await store.save("a", 1)
    try await store.save("b", 2)
    #expect(try await store.load("a") == 1)
    #expect(try await store.load("b") == 2)
    try await store.delete("a")
    #expect(try await store.load("a") == nil)
    #expect(try await store.load("b") == 2)
  }

  @Test func startsWithTheInitialValues() async throws {
    let store = Store<String, Int>.inMemory(["a": 7])
    #expect(try await store.load("a") == 7)
  }

  @Test func updateTransformsAndStores() async throws {
    let store = Store<String, Int>.inMemory()
    #expect(try await store.update("n") { ($0 ?? 0) + 1 } == 1)
    #expect(try await store.update("n") { ($0 ?? 0) + 1 } == 2)
    #expect(try await store.load("n") == 2)
    #expect(try await store.update("n") { _ in nil } == nil)
    #expect(try await store.load("n") == nil)
  }

  @Test func concurrentUpdatesLoseNothing() async throws {
    let store = Store<String, Int>.inMemory()
    await withThrowingTaskGroup { group in
      for _ in 0..<100 {
        group.addTask { _ = try await store.update("n") { ($0 ?? 0) + 1 } }
      }
    }
    #expect(try await store.load("n") == 100)
  }

  @Test func aThrowingTransformStoresNothing() async throws {
    struct Refused: Error {}
    let store = Store<String, Int>.inMemory(["n": 1])
    await #expect(throws: Refused.self) {
      try await store.update("n") { _ in throw Refused() }
    }
    #expect(try await store.load("n") == 1)
  }

  @Test func failingThrowsOnEveryEndpoint() async throws {
    // Each call is an issue of this test (a known one here), besides the error it throws.
    await withKnownIssue {
      let store = Store<String, Int>.failing
      await #expect(throws: UnimplementedCall(endpoint: "Store.load")) { try await store.load("a") }
      await #expect(throws: UnimplementedCall(endpoint: "Store.save")) {
        try await store.save("a", 1)
      }
      await #expect(throws: UnimplementedCall(endpoint: "Store.delete")) {
        try await store.delete("a")
      }
      await #expect(throws: UnimplementedCall(endpoint: "Store.update")) {
        try await store.update("a") { $0 }
      }
    }
  }
}
