import ContentService
import CounterService
import DataFetchFeature
import Foundation
import LastResponseCodeService
import Reachability
import Synchronization
import Testing

private typealias State = DataFetchViewModel.State

private let code = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

@Suite(.timeLimit(.minutes(10))) struct StateTests {
  @Test func labels() {
    let state = State(responseCode: code, timesFetched: 3)
    #expect(state.responseCodeLabel == "Response Code: e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
    #expect(state.timesFetchedLabel == "Times Fetched: 3")
  }

  @Test func labelsBeforeAnyFetch() {
    #expect(State().responseCodeLabel == "Response Code: none")
    #expect(State().timesFetchedLabel == "Times Fetched: 0")
  }
}

@Suite(.timeLimit(.minutes(10))) struct DataFetchViewModelTests {
  @Test func onAppearLoadsTheStoredValues() async {
    let model = DataFetchViewModel(
      content: .failing, counter: .inMemory(5), lastResponseCode: .inMemory(code),
      reachability: .failing)
    await model.onAppear()
    #expect(model.state() == State(responseCode: code, timesFetched: 5))
  }

  @Test func onAppearShowsZeroWhenThereIsNoCount() async {
    let model = DataFetchViewModel(
      content: .failing, counter: .inMemory(nil), lastResponseCode: .inMemory(),
      reachability: .failing)
    await model.onAppear()
    #expect(model.state() == State(responseCode: nil, timesFetched: 0))
  }

  @Test func onAppearReportsAStoreFailure() async {
    var counter = CounterService.failing
    counter.count = { throw StoreBroken() }
    let model = DataFetchViewModel(
      content: .failing, counter: counter, lastResponseCode: .inMemory(), reachability: .failing)
    await model.onAppear()
    #expect(model.state().errorMessage == State.fetchFailedMessage)
    #expect(model.state().errorCause == "the store is broken")
  }

  @Test func fetchSavesTheCodeAndIncrementsOnce() async throws {
    let increments = Mutex(0)
    let saved = Mutex<[UUID]>([])
    var counter = CounterService.failing
    counter.increment = {
      increments.withLock { $0 += 1 }
      return 8
    }
    var last = LastResponseCodeService.failing
    last.load = { nil }  // kept, to be put back if the count failed
    last.update = { new in saved.withLock { $0.append(new) } }

    let model = DataFetchViewModel(
      content: .succeeding(with: code), counter: counter, lastResponseCode: last,
      reachability: .failing,
      initial: State(timesFetched: 7))
    await model.fetchContent()

    #expect(increments.withLock { $0 } == 1)
    #expect(saved.withLock { $0 } == [code])
    #expect(model.state() == State(responseCode: code, timesFetched: 8))
  }

  @Test func twoFetchesCountTwo() async throws {
    let counter = CounterService.inMemory()
    let last = LastResponseCodeService.inMemory()
    let model = DataFetchViewModel(
      content: .succeeding(with: code), counter: counter, lastResponseCode: last,
      reachability: .failing)
    await model.onAppear()
    await model.fetchContent()
    await model.fetchContent()
    #expect(model.state().timesFetched == 2)
    #expect(try await counter.count() == 2)
    #expect(try await last.load() == code)
  }

  @Test func aFailedFetchSavesNothingAndCountsNothing() async throws {
    let previous = UUID()
    let model = DataFetchViewModel(
      content: .unreachable, counter: .failing, lastResponseCode: .failing, reachability: .failing,
      initial: State(responseCode: previous, timesFetched: 4))
    await model.fetchContent()
    #expect(
      model.state()
        == State(
          responseCode: previous, timesFetched: 4, errorMessage: State.fetchFailedMessage,
          errorCause: "the server is unreachable"))
  }

  @Test func theNextFetchClearsTheError() async throws {
    let attempts = Mutex(0)
    let content = ContentService {
      let attempt = attempts.withLock {
        $0 += 1
        return $0
      }
      if attempt == 1 { throw ContentServiceMockError.unreachable }
      return code
    }
    let model = DataFetchViewModel(
      content: content, counter: .inMemory(), lastResponseCode: .inMemory(), reachability: .failing)
    await model.fetchContent()
    #expect(model.state().errorMessage == State.fetchFailedMessage)

    await model.fetchContent()
    #expect(model.state() == State(responseCode: code, timesFetched: 1))
  }

  @Test func theErrorIsClearedWhileTheNextFetchRuns() async throws {
    let (started, startedContinuation) = AsyncStream<Void>.makeStream()
    let (release, releaseContinuation) = AsyncStream<Void>.makeStream()
    let calls = Mutex(0)
    let content = ContentService {
      let call = calls.withLock {
        $0 += 1
        return $0
      }
      if call == 1 { throw ContentServiceMockError.unreachable }
      startedContinuation.yield()
      for await _ in release { break }
      return code
    }
    let model = DataFetchViewModel(
      content: content, counter: .inMemory(), lastResponseCode: .inMemory(), reachability: .failing)
    await model.fetchContent()
    #expect(model.state().errorMessage != nil)

    let second = Task { await model.fetchContent() }
    for await _ in started { break }
    #expect(model.state().errorMessage == nil)
    #expect(model.state().errorCause == nil)
    releaseContinuation.yield()
    await second.value
    #expect(model.state().timesFetched == 1)
  }

  @Test func aFailedIncrementKeepsTheOldCount() async throws {
    var counter = CounterService.failing
    counter.increment = { throw StoreBroken() }
    let model = DataFetchViewModel(
      content: .succeeding(with: code), counter: counter, lastResponseCode: .inMemory(),
      reachability: .failing,
      initial: State(timesFetched: 2))
    await model.fetchContent()
    #expect(model.state().timesFetched == 2)
    #expect(model.state().responseCode == nil)
    #expect(model.state().errorCause == "the store is broken")
  }

  @Test func aFailedIncrementPutsTheEarlierCodeBack() async throws {
    let earlier = UUID()
    var counter = CounterService.inMemory(2)
    counter.increment = { throw StoreBroken() }
    let lastResponseCode = LastResponseCodeService.inMemory(earlier)
    let model = DataFetchViewModel(
      content: .succeeding(with: code), counter: counter, lastResponseCode: lastResponseCode,
      reachability: .failing)
    await model.fetchContent()
    #expect(try await lastResponseCode.load() == earlier)
    #expect(try await counter.count() == 2)
  }
}

@Suite(.timeLimit(.minutes(10))) struct ResetTests {
  @Test func resetClearsBoth() async throws {
    let counter = CounterService.inMemory(5)
    let lastResponseCode = LastResponseCodeService.inMemory(code)
    let model = DataFetchViewModel(
      content: .failing, counter: counter, lastResponseCode: lastResponseCode,
      reachability: .failing,
      initial: State(responseCode: code, timesFetched: 5))
    try await model.reset()
    #expect(try await counter.count() == nil)
    #expect(try await lastResponseCode.load() == nil)
    #expect(model.state().timesFetched == 0)
    #expect(model.state().responseCode == nil)
  }

  @Test func aCountOutOfRangeIsReset() async throws {
    var counter = CounterService.inMemory(5)
    counter.count = { throw CounterError.negative(-2) }
    let lastResponseCode = LastResponseCodeService.inMemory(code)
    let model = DataFetchViewModel(
      content: .failing, counter: counter, lastResponseCode: lastResponseCode,
      reachability: .failing)
    try await model.reset()
    #expect(try await lastResponseCode.load() == nil)
  }

  @Test func anUnreadableCountClearsNothing() async throws {
    var counter = CounterService.inMemory(5)
    counter.count = { throw StoreBroken() }
    let lastResponseCode = LastResponseCodeService.inMemory(code)
    let model = DataFetchViewModel(
      content: .failing, counter: counter, lastResponseCode: lastResponseCode,
      reachability: .failing)
    await #expect(throws: StoreBroken.self) { try await model.reset() }
    #expect(try await lastResponseCode.load() == code)
  }

  @Test func aCountThatCannotBeClearedPutsTheCodeBack() async throws {
    var counter = CounterService.inMemory(5)
    counter.reset = { throw StoreBroken() }
    let lastResponseCode = LastResponseCodeService.inMemory(code)
    let model = DataFetchViewModel(
      content: .failing, counter: counter, lastResponseCode: lastResponseCode,
      reachability: .failing)
    await #expect(throws: StoreBroken.self) { try await model.reset() }
    #expect(try await lastResponseCode.load() == code)
    #expect(try await counter.count() == 5)
  }
}

private struct StoreBroken: Error, CustomStringConvertible {
  var description: String { "the store is broken" }
}

@Suite(.timeLimit(.minutes(10))) struct ServerReachabilityTests {
  private let server = ReachabilityHost(name: "server.test", port: 8000)

  /// A content service that fails as a dead server would until `up` is set, then answers
  /// `code`.
  private final class Server: Sendable {
    private let isUp = Mutex(false)
    let calls = Mutex(0)
    func start() { isUp.withLock { $0 = true } }
    var content: ContentService {
      ContentService {
        self.calls.withLock { $0 += 1 }
        guard self.isUp.withLock({ $0 }) else { throw ServerDown() }
        return code
      }
    }
  }

  private struct ServerDown: Error {}

  @Test func aFetchThatFailsWhileTheServerIsDownRunsAgainWhenItIsBack() async throws {
    let (reachability, control) = Reachability.controlled(.unreachable)
    let backend = Server()
    let model = DataFetchViewModel(
      content: backend.content, counter: .inMemory(0), lastResponseCode: .inMemory(),
      reachability: reachability, server: server)
    let fetching = Task { await model.fetchOrWaitForServer() }
    while !model.state().isWaitingForServer { await Task.yield() }
    #expect(model.state().errorMessage == State.fetchFailedMessage)
    #expect(model.state().offlineNotice?.contains("Fetching again") == true)
    #expect(backend.calls.withLock { $0 } == 1)

    backend.start()
    control.set(.reachable)
    await fetching.value
    #expect(model.state() == State(responseCode: code, timesFetched: 1))
    #expect(backend.calls.withLock { $0 } == 2)
  }

  @Test func aFailureWhileTheServerIsReachableDoesNotWait() async {
    let model = DataFetchViewModel(
      content: Server().content, counter: .inMemory(0), lastResponseCode: .inMemory(),
      reachability: .reachable, server: server)
    await model.fetchOrWaitForServer()
    #expect(model.state().errorMessage == State.fetchFailedMessage)
    #expect(!model.state().isWaitingForServer)
  }

  @Test func watchServerFollowsTheStatus() async {
    let (reachability, control) = Reachability.controlled(.reachable)
    let model = DataFetchViewModel(
      content: .failing, counter: .inMemory(0), lastResponseCode: .inMemory(),
      reachability: reachability, server: server)
    let (changes, continuation) = AsyncStream<Bool>.makeStream()
    let watcher = Task { await model.watchServer { continuation.yield(model.state().isOffline) } }
    var seen = changes.makeAsyncIterator()
    #expect(await seen.next() == false)
    control.set(.unreachable)
    #expect(await seen.next() == true)
    #expect(model.state().offlineNotice == "Offline: the server cannot be reached.")
    control.set(.reachable)
    #expect(await seen.next() == false)
    watcher.cancel()
  }

  @Test func withoutAServerNothingIsWatched() async {
    let model = DataFetchViewModel(
      content: .failing, counter: .inMemory(0), lastResponseCode: .inMemory(),
      reachability: .failing)
    await model.watchServer { Issue.record("no server, no changes") }
    #expect(model.state().offlineNotice == nil)
  }
}

@Suite(.timeLimit(.minutes(10))) struct FetchValuesTests {
  @Test func aMissingCodeIsNullAndTheCodeLowercase() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let none = String(decoding: try encoder.encode(FetchValues(State())), as: UTF8.self)
    #expect(none == #"{"responseCode":null,"timesFetched":0}"#)
    let some = FetchValues(State(responseCode: code, timesFetched: 2))
    #expect(some.responseCode == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
    #expect(try JSONDecoder().decode(FetchValues.self, from: encoder.encode(some)) == some)
  }
}
