import Foundation

/// One entry of the feed: a song, or what `kind` says. Only the name and the artist are
/// always there (an album's artist, an app's developer, a book's author).
public struct Song: Codable, Equatable, Sendable, Identifiable {
  /// The store's id of the song, or its place in the feed (`entry 3`) when the feed has none.
  public var id: String
  public var name: String
  public var artist: String
  public var artistLink: URL?
  /// The entry's title, usually "name - artist".
  public var title: String?
  /// The album (the iTunes "collection").
  public var album: String?
  public var price: Price?
  public var releaseDate: Date?
  public var category: String?
  /// The song's page in the store.
  public var pageLink: URL?
  /// A short preview of the audio.
  public var previewLink: URL?
  /// Cover art, smallest first.
  public var images: [SongImage]
  /// What the entry is, as the feed says (nil when it does not say: a top-songs feed).
  public var kind: ItemKind?

  public init(
    id: String, name: String, artist: String, artistLink: URL? = nil, title: String? = nil,
    album: String? = nil, price: Price? = nil, releaseDate: Date? = nil,
    category: String? = nil, pageLink: URL? = nil, previewLink: URL? = nil,
    images: [SongImage] = []
  ) {
    self.init(
      id: id, name: name, artist: artist, artistLink: artistLink, title: title, album: album,
      price: price, releaseDate: releaseDate, category: category, pageLink: pageLink,
      previewLink: previewLink, images: images, kind: nil)
  }

  /// An entry of `kind`.
  public init(
    id: String, name: String, artist: String, artistLink: URL? = nil, title: String? = nil,
    album: String? = nil, price: Price? = nil, releaseDate: Date? = nil,
    category: String? = nil, pageLink: URL? = nil, previewLink: URL? = nil,
    images: [SongImage] = [], kind: ItemKind?
  ) {
    self.kind = kind
    self.id = id
    self.name = name
    self.artist = artist
    self.artistLink = artistLink
    self.title = title
    self.album = album
    self.price = price
    self.releaseDate = releaseDate
    self.category = category
    self.pageLink = pageLink
    self.previewLink = previewLink
    self.images = images
  }

  /// The tallest image.
  public var largestImage: SongImage? { images.max { $0.height < $1.height } }
}

/// A price, as the feed gives it.
public struct Price: Codable, Equatable, Sendable {
  public var amount: Decimal
  /// The ISO 4217 code, such as `USD`.
  public var currency: String
  /// The store's own rendering, such as `$1.29`.
  public var label: String?

  public init(amount: Decimal, currency: String, label: String? = nil) {
    self.amount = amount
    self.currency = currency
    self.label = label
  }
}

/// Cover art of one size.
public struct SongImage: Codable, Equatable, Sendable {
  public var height: Int
  public var url: URL

  public init(height: Int, url: URL) {
    self.height = height
    self.url = url
  }
}
