import Foundation
import SongsService
import XMLPathParser

/// Maps the entries of an iTunes RSS feed (Atom with the `im:` namespace) to entries of their
/// kind: songs in the top-songs feeds, albums, apps, … in others.
enum ITunesRSSReader {
  private enum Field: Sendable {
    case entry, id, name, artist, title, album, price, releaseDate, category, page, preview, image
    case contentType, innerContentType
  }

  private static let parser: XMLPathParser<Field> = {
    do {
      return try XMLPathParser([
        "feed.entry": .entry,
        "feed.entry.id": .id,
        "feed.entry.im:name": .name,
        "feed.entry.im:artist": .artist,
        "feed.entry.title": .title,
        "feed.entry.im:collection.im:name": .album,
        "feed.entry.im:price@amount,currency": .price,
        "feed.entry.im:releaseDate": .releaseDate,
        "feed.entry.category": .category,
        "feed.entry.link@rel=alternate,href": .page,
        "feed.entry.link@rel=enclosure,href": .preview,
        "feed.entry.im:image@height": .image,
        "feed.entry.im:contentType@term": .contentType,
        "feed.entry.im:contentType.im:contentType@term": .innerContentType,
      ])
    } catch {
      preconditionFailure("the feed paths are fixed and valid: \(error)")
    }
  }()

  /// The entries of the XML feed in `data`, in order. Throws `XMLPathError` for a document
  /// that is not well-formed, and `FeedKind.Other` for one that is not iTunes RSS.
  static func feed(in data: Data) throws -> SongFeed {
    var feed = SongFeed(songs: [], format: .iTunesRSS)
    var entry = EntryFields()
    var number = 0
    let root = try parser.parse(data) { match in
      let text = match.text.trimmingCharacters(in: .whitespacesAndNewlines)
      let attributes = match.attributes
      switch match.id {
      case .entry:
        number += 1
        entry.add(number: number, to: &feed)
        entry = EntryFields()
      case .id:
        entry.id = attributes["im:id"]
        entry.idText = text
      case .name: entry.name = text
      case .artist:
        entry.artist = text
        entry.artistLink = attributes["href"].flatMap(URL.init(string:))
      case .title: entry.title = text
      case .album: entry.album = text
      case .price:
        entry.price = Decimal(
          string: attributes["amount"] ?? "", locale: Locale(identifier: "en_US_POSIX")
        ).map {
          Price(
            amount: $0, currency: attributes["currency"] ?? "", label: text.isEmpty ? nil : text)
        }
      case .releaseDate: entry.releaseDate = try? Date(text, strategy: .iso8601)
      case .category: entry.category = attributes["label"] ?? attributes["term"]
      case .page: entry.page = attributes["href"].flatMap(URL.init(string:))
      case .preview: entry.preview = attributes["href"].flatMap(URL.init(string:))
      case .contentType: entry.contentType = attributes["term"]
      case .innerContentType: entry.innerContentType = attributes["term"]
      case .image:
        if let height = attributes["height"].flatMap(Int.init), let url = URL(string: text) {
          entry.images.append(SongImage(height: height, url: url))
        }
      }
    }
    guard root.name == "feed", root.attributes["xmlns:im"] != nil else {
      throw FeedKind.Other(found: description(of: root))
    }
    return feed
  }

  /// What a document with this root is, for one that is not iTunes RSS.
  private static func description(of root: XMLRoot) -> String {
    switch root.name.lowercased() {
    case "rss": "an RSS \(root.attributes["version"] ?? "2.0") feed"
    case "feed": "an Atom feed without iTunes' im: namespace"
    case "html": "an HTML page"
    case "rdf:rdf": "an RSS 1.0 (RDF) feed"
    default: "an XML document whose root is <\(root.name)>"
    }
  }
}

/// What one entry has said so far.
private struct EntryFields {
  var id: String?
  var idText: String?
  var name: String?
  var artist: String?
  var artistLink: URL?
  var title: String?
  var album: String?
  var price: Price?
  var releaseDate: Date?
  var category: String?
  var page: URL?
  var preview: URL?
  var images: [SongImage] = []
  /// The `im:contentType` terms: `Music` and `Track` for a song, `Application` for an app.
  var contentType: String?
  var innerContentType: String?

  /// Adds entry `number` to `feed`, of its kind, or as skipped when it lacks a name or an
  /// artist. Empty text counts as missing.
  func add(number: Int, to feed: inout SongFeed) {
    feed.addEntry(number: number, id: id, name: name, artist: artist) { name, artist in
      Song(
        id: id ?? idText ?? "entry \(number)", name: name, artist: artist, artistLink: artistLink,
        title: title, album: album, price: price, releaseDate: releaseDate, category: category,
        pageLink: page, previewLink: preview, images: images.sorted { $0.height < $1.height },
        kind: (innerContentType ?? contentType).map(ItemKind.init(iTunesContentType:)))
    }
  }
}
