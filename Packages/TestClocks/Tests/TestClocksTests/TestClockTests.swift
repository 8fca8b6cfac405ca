import Testing

@testable import TestClocks

@Suite(.timeLimit(.minutes(10))) struct TestClockTests {
  @Test func wakesASleeperOnlyWhenItsDeadlineComes() async throws {
    let clock = TestClock()
    let woke = Task { try await clock.sleep(for: .seconds(1)) }
    await clock.sleepers(atLeast: 1)

    clock.advance(by: .milliseconds(999))
    #expect(clock.sleeperCount == 1)

    clock.advance(by: .milliseconds(1))
    #expect(clock.sleeperCount == 0)
    try await woke.value
    #expect(clock.now.offset == .seconds(1))
  }

  @Test func wakesSleepersEarliestFirst() async throws {
    let clock = TestClock()
    let order = AsyncStream<Int>.makeStream()
    for (index, delay) in [3, 1, 2].enumerated() {
      Task {
        try await clock.sleep(for: .seconds(delay))
        order.continuation.yield(index)
      }
      await clock.sleepers(atLeast: index + 1)
    }
    clock.advance(by: .seconds(1))
    var iterator = order.stream.makeAsyncIterator()
    #expect(await iterator.next() == 1)
    clock.advance(by: .seconds(1))
    #expect(await iterator.next() == 2)
    clock.advance(by: .seconds(1))
    #expect(await iterator.next() == 0)
  }

  @Test func aPastDeadlineReturnsAtOnce() async throws {
    let clock = TestClock()
    clock.advance(by: .seconds(5))
    try await clock.sleep(until: TestInstant(offset: .seconds(2)), tolerance: nil)
    #expect(clock.sleeperCount == 0)
  }

  @Test func aCancelledWaitForSleepersReturns() async {
    let clock = TestClock()
    let waiting = Task { await clock.sleepers(atLeast: 1) }
    waiting.cancel()
    await waiting.value
    #expect(clock.sleeperCount == 0)
    // A wait cancelled before it began returns at once too.
    await withTaskGroup(of: Void.self) { group in
      group.cancelAll()
      group.addTask { await clock.sleepers(atLeast: 1) }
    }
  }

  @Test func cancellingASleeperThrowsAndRemovesIt() async throws {
    let clock = TestClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
    await clock.sleepers(atLeast: 1)
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.sleeperCount == 0)
  }
}

@Suite(.timeLimit(.minutes(10))) struct ImmediateClockTests {
  @Test func sleepsReturnAtOnceAndMoveTimeForward() async throws {
    let clock = ImmediateClock()
    try await clock.sleep(for: .seconds(60))
    try await clock.sleep(for: .milliseconds(500))
    #expect(clock.now.offset == .milliseconds(60_500))
  }

  @Test func aCancelledSleepThrows() async throws {
    let clock = ImmediateClock()
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }
    await #expect(throws: CancellationError.self) { try await task.value }
  }
}
