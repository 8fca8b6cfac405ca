import Foundation

/// Fetches a "top songs" feed, or another of Apple's feeds in the same formats.
public struct SongsService: Sendable {
  /// The entries of the feed at the URL, in feed order (songs, or what each entry's `kind`
  /// says), and the entries that could not be read.
  public var topSongs: @Sendable (_ feed: URL) async throws -> SongFeed

  public init(topSongs: @escaping @Sendable (_ feed: URL) async throws -> SongFeed) {
    self.topSongs = topSongs
  }
}

/// What a feed held: its entries in order, the entries skipped, and the format it came in.
public struct SongFeed: Equatable, Sendable {
  /// The entries: songs in a top-songs feed, and albums, apps, … in others (`Song.kind`).
  public var songs: [Song]
  /// Entries without a name or an artist, which cannot be listed.
  public var skipped: [SkippedEntry]
  public var format: FeedFormat

  public init(songs: [Song], skipped: [SkippedEntry] = [], format: FeedFormat) {
    self.songs = songs
    self.skipped = skipped
    self.format = format
  }
}

/// The two formats Apple serves its feeds in.
public enum FeedFormat: String, Equatable, Sendable {
  /// iTunes RSS: Atom with the `im:` namespace (`.../rss/topsongs/limit=25/xml`), or its
  /// JSON form (`.../json`: `feed.entry`, each element's text under `label`).
  case iTunesRSS = "iTunes RSS"
  /// The JSON of Apple's RSS generator (`.../music/most-played/25/songs.json`).
  case appleJSON = "Apple RSS generator JSON"
}

/// An entry that cannot be listed: which one (`entry 3 (id 99)`) and the field it lacks.
public struct SkippedEntry: Equatable, Sendable, CustomStringConvertible {
  public var entry: String
  public var missing: String

  public init(entry: String, missing: String) {
    self.entry = entry
    self.missing = missing
  }

  public var description: String { "\(entry) has no \(missing)" }

  /// The first three of `entries`, and how many more: "entry 1 has no name, entry 4 has no
  /// artist, entry 7 has no name, and 2 more".
  public static func summary(_ entries: [SkippedEntry]) -> String {
    let shown = entries.prefix(3).map(\.description).joined(separator: ", ")
    return shown + (entries.count > 3 ? ", and \(entries.count - 3) more" : "")
  }
}

/// Why a feed could not be turned into songs.
public enum SongsError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
  /// The feed is not a well-formed document (XML or JSON); the reason has the position.
  case malformedFeed(url: String, reason: String)
  /// The document is well-formed but not one of Apple's feeds; `found` says what it is
  /// ("an RSS 2.0 feed").
  case notASongsFeed(url: String, found: String)
  /// The feed has entries, and none of them is a song.
  case noUsableEntries(url: String, skipped: [SkippedEntry])

  public var description: String {
    switch self {
    case .malformedFeed(let url, let reason):
      return "the feed at \(url) is not valid: \(reason)"
    case .notASongsFeed(let url, let found):
      return "the feed at \(url) is \(found), not one of Apple's feeds "
        + "(iTunes RSS: Atom with the im: namespace, or its JSON form; or the JSON of Apple's "
        + "RSS generator)"
    case .noUsableEntries(let url, let skipped):
      return "the feed at \(url) has no usable entry: \(SkippedEntry.summary(skipped))"
    }
  }

  public var errorDescription: String? { description }
}
