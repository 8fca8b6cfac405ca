import Foundation

extension SongsService {
  /// A service that a test did not expect to be used: it throws.
  public static let failing = SongsService { feed in
    throw UnexpectedSongsServiceCall(feed: feed)
  }

  /// A service that answers every feed with `songs` in iTunes RSS, none skipped.
  public static func succeeding(with songs: [Song]) -> SongsService {
    SongsService { _ in SongFeed(songs: songs, format: .iTunesRSS) }
  }
}

/// Thrown by `SongsService.failing`.
public struct UnexpectedSongsServiceCall: Error, Equatable, CustomStringConvertible {
  public let feed: URL

  public init(feed: URL) {
    self.feed = feed
  }

  public var description: String {
    "SongsService.topSongs(\(feed.absoluteString)) was called, but no test expected it"
  }
}
