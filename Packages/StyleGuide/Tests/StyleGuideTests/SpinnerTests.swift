import StyleGuide
import Synchronization
import TestClocks
import Testing

/// What the spinner drew, in order.
private final class Screen: Sendable {
  private let events = Mutex<[String]>([])
  var drawn: [String] { events.withLock { $0 } }
  func show(_ frame: String) { events.withLock { $0.append(frame) } }
  func hide() { events.withLock { $0.append("hide") } }
}

/// Work that runs until the test finishes it.
private struct Work: Sendable {
  let stream: AsyncStream<Int>
  let continuation: AsyncStream<Int>.Continuation

  init() {
    (stream, continuation) = AsyncStream<Int>.makeStream()
  }

  func run() async -> Int {
    for await value in stream { return value }
    return -1
  }
}

/// Runs `work` under a spinner that draws on `screen`.
private func spin<T>(
  _ clock: TestClock, _ screen: Screen, _ work: () async throws -> T
) async rethrows -> T {
  try await Spinner.run(clock: clock, show: screen.show, hide: screen.hide, operation: work)
}

@Suite(.timeLimit(.minutes(10))) struct SpinnerTests {
  @Test func quickWorkShowsNothing() async throws {
    let (clock, screen, work) = (TestClock(), Screen(), Work())
    let result = Task { await spin(clock, screen) { await work.run() } }
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .milliseconds(999))
    work.continuation.yield(7)
    #expect(await result.value == 7)
    #expect(screen.drawn.isEmpty)
  }

  @Test func slowWorkShowsFramesAfterOneSecondThenHides() async throws {
    let (clock, screen, work) = (TestClock(), Screen(), Work())
    let result = Task { await spin(clock, screen) { await work.run() } }
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .milliseconds(999))
    #expect(clock.sleeperCount == 1)
    #expect(screen.drawn.isEmpty)

    clock.advance(by: .milliseconds(1))
    await clock.sleepers(atLeast: 1)
    #expect(screen.drawn == ["⠋"])

    clock.advance(by: .milliseconds(100))
    await clock.sleepers(atLeast: 1)
    #expect(screen.drawn == ["⠋", "⠙"])

    work.continuation.yield(3)
    #expect(await result.value == 3)
    #expect(screen.drawn == ["⠋", "⠙", "hide"])
  }

  @Test func errorsPassThroughAndStopTheSpinner() async throws {
    struct Failed: Error {}
    let (clock, screen, work) = (TestClock(), Screen(), Work())
    let result = Task {
      try await spin(clock, screen) {
        _ = await work.run()
        throw Failed()
      }
    }
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(1))
    await clock.sleepers(atLeast: 1)
    work.continuation.yield(0)
    await #expect(throws: Failed.self) { try await result.value }
    #expect(screen.drawn == ["⠋", "hide"])
    #expect(clock.sleeperCount == 0)
  }
}
