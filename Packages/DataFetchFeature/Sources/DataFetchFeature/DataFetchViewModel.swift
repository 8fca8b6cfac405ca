import ContentService
import CounterService
import Foundation
import LastResponseCodeService
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

  public init(
    state: @escaping @Sendable () -> State,
    onAppear: @escaping @Sendable () async -> Void,
    fetchContent: @escaping @Sendable () async -> Void
  ) {
    self.state = state
    self.onAppear = onAppear
    self.fetchContent = fetchContent
  }
}

extension DataFetchViewModel {
  /// The view model over the three services, starting from `initial`.
  public static func live(
    content: ContentService,
    counter: CounterService,
    lastResponseCode: LastResponseCodeService,
    initial: State = State()
  ) -> DataFetchViewModel {
    let state = Mutex(initial)
    @Sendable func fail(_ error: any Error) {
      state.withLock {
        $0.errorMessage = State.fetchFailedMessage
        $0.errorCause = "\(error)"
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
      fetchContent: {
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
        } catch {
          fail(error)
        }
      }
    )
  }
}
