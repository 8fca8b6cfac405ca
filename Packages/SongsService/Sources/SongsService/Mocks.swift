import Foundation
import Unimplemented

extension SongsService {
  /// A service that a test did not expect to be used: it throws and is reported (see
  /// `Unimplemented`).
  public static let failing = SongsService { _ in throw unimplemented("SongsService.topSongs") }

  /// A service that answers every feed with `songs` in iTunes RSS, none skipped.
  public static func succeeding(with songs: [Song]) -> SongsService {
    SongsService { _ in SongFeed(songs: songs, format: .iTunesRSS) }
  }
}
