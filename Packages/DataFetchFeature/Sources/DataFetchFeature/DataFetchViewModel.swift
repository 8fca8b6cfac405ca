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

  public init(
    state: @escaping @Sendable () -> State,
    onAppear: @escaping @Sendable () async -> Void,
    fetchContent: @escaping @Sendable () async -> Void,
    fetchOrWaitForServer: @escaping @Sendable () async -> Void,
    watchServer: @escaping @Sendable (_ changed: @escaping @Sendable () -> Void) async -> Void
  ) {
    self.state = state
    self.onAppear = onAppear
    self.fetchContent = fetchContent
    self.fetchOrWaitForServer = fetchOrWaitForServer
    self.watchServer = watchServer
  }
}

extension DataFetchViewModel {
  /// The view model over the three services, starting from `initial`. `reachability` says
  /// whether `server` can be reached; without a server, nothing is watched or waited for.
  public static func live(
    content: ContentService,
    counter: CounterService,
    lastResponseCode: LastResponseCodeService,
    reachability: Reachability = .reachable,
    server: ReachabilityHost? = nil,
    initial: State = State()
  ) -> DataFetchViewModel {
    let state = Mutex(initial)
    let minder = server.map { NetMinder(reachability: reachability, host: $0) }
    @Sendable func fail(_ error: any Error) {
      state.withLock {
        $0.errorMessage = State.fetchFailedMessage
        $0.errorCause = "\(error)"
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
        try await lastResponseCode.update(code)
        let count = try await counter.increment()
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
    return DataFetchViewModel(
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
      }
    )
  }
}
