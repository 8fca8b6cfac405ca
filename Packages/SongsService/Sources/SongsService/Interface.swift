import Foundation

/// Fetches a "top songs" feed.
public struct SongsService: Sendable {
  /// The songs of the feed at the URL, in feed order.
  public var topSongs: @Sendable (_ feed: URL) async throws -> [Song]

  public init(topSongs: @escaping @Sendable (_ feed: URL) async throws -> [Song]) {
    self.topSongs = topSongs
  }
}

/// Why a feed could not be turned into songs.
public enum SongsError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
  /// An entry lacks a field every song needs (its name or its artist).
  case missingField(_ field: String, entry: String)
  /// The feed is not a well-formed document.
  case malformedFeed(url: String, reason: String)

  public var description: String {
    switch self {
    case .missingField(let field, let entry):
      return "\(entry) has no \(field)"
    case .malformedFeed(let url, let reason):
      return "the feed at \(url) is not valid: \(reason)"
    }
  }

  public var errorDescription: String? { description }
}
