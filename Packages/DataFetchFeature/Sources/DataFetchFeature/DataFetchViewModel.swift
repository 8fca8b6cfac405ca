import ContentService
import CounterService
import Foundation
import LastResponseCodeService
import Reachability
import Synchronization

/// The fetcher screen's logic: load the stored values, fetch a new code, and keep the state.
public struct DataFetchViewModel: Sendable {
  /// The current state.
  public var state: @Sendable () -> State
  /// Loads the stored code and count; a missing count shows as 0.
  public var onAppear: @Sendable () async -> Void
  /// Fetches a new code. On success the code is saved and the count goes up by exactly one;
  /// on failure neither changes and the state carries the error.
  public var fetchContent: @Sendable () async -> Void
  /// Fetches like `fetchContent`; when that fails because the server cannot be reached, waits
  /// (with `isWaitingForServer` set) until it can, and fetches again.
  public var fetchOrWaitForServer: @Sendable () async -> Void
  /// Follows whether the server can be reached into `isOffline`, calling `changed` after
  /// each change, until the task is cancelled.
  public var watchServer: @Sendable (_ changed: @escaping @Sendable () -> Void) async -> Void
  /// Forgets the stored code and count, both or neither: when one cannot be cleared, the
  /// other is left as it was, and the error is thrown.
  public var reset: @Sendable () async throws -> Void

  public init(
    state: @escaping @Sendable () -> State,
    onAppear: @escaping @Sendable () async -> Void,
    fetchContent: @escaping @Sendable () async -> Void,
    fetchOrWaitForServer: @escaping @Sendable () async -> Void,
    watchServer: @escaping @Sendable (_ changed: @escaping @Sendable () -> Void) async -> Void,
    reset: @escaping @Sendable () async throws -> Void
  ) {
    self.state = state
    self.onAppear = onAppear
    self.fetchContent = fetchContent
    self.fetchOrWaitForServer = fetchOrWaitForServer
    self.watchServer = watchServer
    self.reset = reset
  }
}

extension DataFetchViewModel {
  /// The view model over the three services, starting from `initial`. `reachability` says
  /// whether `server` can be reached; without a server, nothing is watched or waited for.
  public init(
    content: ContentService,
    counter: CounterService,
    lastResponseCode: LastResponseCodeService,
    reachability: Reachability,
    server: ReachabilityHost? = nil,
    initial: State = State()
  ) {
    let state = Mutex(initial)
    let minder = server.map { NetMinder(reachability: reachability, host: $0) }
    @Sendable func fail(_ error: any Error) {
      state.withLock {
        $0.errorMessage = State.fetchFailedMessage
        $0.errorCause = "\(error)"
      }
    }
    /// Stores `code` as the last one again, or none.
    @Sendable func restore(_ code: UUID?) async throws {
      if let code {
        try await lastResponseCode.update(code)
      } else {
        try await lastResponseCode.clear()
      }
    }
    /// Fetches once; returns whether it succeeded.
    @Sendable func fetch() async -> Bool {
      state.withLock {
        $0.errorMessage = nil
        $0.errorCause = nil
      }
      do {
        let code = try await content.fetchResponseCode()
        // Both are saved or neither: a count that fails puts the earlier code back.
        let previous = try await lastResponseCode.load()
        try await lastResponseCode.update(code)
        let count: Int
        do {
          count = try await counter.increment()
        } catch {
          try? await restore(previous)
          throw error
        }
        state.withLock {
          $0.responseCode = code
          $0.timesFetched = count
        }
        return true
      } catch {
        fail(error)
        return false
      }
    }
    self.init(
      state: { state.withLock { $0 } },
      onAppear: {
        do {
          let code = try await lastResponseCode.load()
          let count = try await counter.count() ?? 0
          state.withLock {
            $0.responseCode = code
            $0.timesFetched = count
          }
        } catch {
          fail(error)
        }
      },
      fetchContent: { _ = await fetch() },
      fetchOrWaitForServer: {
        guard !(await fetch()), let server, let minder,
          await reachability.status(server) == .unreachable
        else { return }
        state.withLock {
          $0.isOffline = true
          $0.isWaitingForServer = true
        }
        await minder.untilReachable()
        state.withLock {
          $0.isOffline = false
          $0.isWaitingForServer = false
        }
        _ = await fetch()
      },
      watchServer: { changed in
        guard let server else { return }
        for await status in reachability.changes(server) {
          state.withLock { $0.isOffline = status == .unreachable }
          changed()
        }
      },
      reset: {
        // Reading both first proves both readable (a count out of range is what a reset is
        // for); the code, cleared first, can be put back.
        let previous = try await lastResponseCode.load()
        do { _ = try await counter.count() } catch is CounterError {}
        try await lastResponseCode.clear()
        do {
          try await counter.reset()
        } catch {
          try? await restore(previous)
          throw error
        }
        state.withLock {
          $0.responseCode = nil
          $0.timesFetched = 0
        }
      }
    )
  }
}
