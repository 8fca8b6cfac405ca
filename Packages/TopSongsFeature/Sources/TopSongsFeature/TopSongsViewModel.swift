import Foundation
import SongsService
import Synchronization

/// The top songs screen's logic: load the feed and keep the list or the error.
public struct TopSongsViewModel: Sendable {
  /// The current state.
  public var state: @Sendable () -> State
  /// Loads the feed; the list is replaced on success, and kept (with the error) on failure.
  public var load: @Sendable () async -> Void

  public init(state: @escaping @Sendable () -> State, load: @escaping @Sendable () async -> Void) {
    self.state = state
    self.load = load
  }

  /// What the screen shows.
  public struct State: Equatable, Sendable {
    public var rows: [Row] = []
    /// The feed's entries that are not songs (no name or no artist), all of them.
    public var skipped: [SkippedEntry] = []
    public var isLoading = false
    /// Why the last load failed, if it did.
    public var errorMessage: String?

    public init(
      rows: [Row] = [], skipped: [SkippedEntry] = [], isLoading: Bool = false,
      errorMessage: String? = nil
    ) {
      self.rows = rows
      self.skipped = skipped
      self.isLoading = isLoading
      self.errorMessage = errorMessage
    }
  }

  /// One numbered song.
  public struct Row: Equatable, Sendable, Identifiable {
    public var number: Int
    public var song: Song

    public init(number: Int, song: Song) {
      self.number = number
      self.song = song
    }

    public var id: String { song.id }

    /// The store's label (`$1.29`), else the amount and currency, else "-".
    public var priceText: String {
      guard let price = song.price else { return "-" }
      return price.label ?? "\(price.amount) \(price.currency)"
    }
  }
}

extension TopSongsViewModel {
  /// The view model of the feed at `feed` through `service`, showing at most `limit` songs
  /// (all when nil).
  public init(service: SongsService, feed: URL, limit: Int? = nil) {
    let state = Mutex(State())
    self.init(
      state: { state.withLock { $0 } },
      load: {
        state.withLock {
          $0.isLoading = true
          $0.errorMessage = nil
        }
        do {
          let read = try await service.topSongs(feed)
          let shown = limit.map { Array(read.songs.prefix($0)) } ?? read.songs
          state.withLock {
            $0.rows = shown.enumerated().map { Row(number: $0.offset + 1, song: $0.element) }
            $0.skipped = read.skipped
            $0.isLoading = false
          }
        } catch {
          state.withLock {
            $0.errorMessage = Self.message(for: error)
            $0.isLoading = false
          }
        }
      })
  }

  private static func message(for error: any Error) -> String {
    (error as? any LocalizedError)?.errorDescription ?? "\(error)"
  }
}
