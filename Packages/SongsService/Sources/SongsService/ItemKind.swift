/// What an entry of one of Apple's feeds is. The top-songs feeds list songs, and the same
/// formats list albums, music videos, podcasts, books, apps and more; a reader says which,
/// so that nothing is shown as a song that is not one.
public struct ItemKind: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
  /// The kind in lower-case words ("song", "music video"), as the table and the JSON show it.
  public var rawValue: String

  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  public var description: String { rawValue }

  public static let song = ItemKind(rawValue: "song")
  public static let album = ItemKind(rawValue: "album")
  public static let musicVideo = ItemKind(rawValue: "music video")
  public static let podcast = ItemKind(rawValue: "podcast")
  public static let podcastEpisode = ItemKind(rawValue: "podcast episode")
  public static let book = ItemKind(rawValue: "book")
  public static let audiobook = ItemKind(rawValue: "audiobook")
  public static let app = ItemKind(rawValue: "app")
  public static let movie = ItemKind(rawValue: "movie")
  public static let tvSeason = ItemKind(rawValue: "tv season")
  public static let tvEpisode = ItemKind(rawValue: "tv episode")

  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(String.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}
