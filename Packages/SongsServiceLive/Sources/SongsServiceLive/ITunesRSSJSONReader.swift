import Foundation
import SongsService

/// Maps the entries of an iTunes RSS feed in its JSON form (`.../rss/topsongs/limit=25/json`:
/// `{"feed": {"entry": [...]}}`, each element's text under `label` and its XML attributes
/// under `attributes`) to entries of their kind, with the fields the XML form gives. A feed
/// of one entry has an object where others have a list, as Apple writes it.
enum ITunesRSSJSONReader {
  /// The entries of the feed in `data`, in order. Throws `DecodingError` for JSON not of this
  /// shape.
  static func feed(in data: Data) throws -> SongFeed {
    let document = try JSONDecoder().decode(Document.self, from: data)
    var feed = SongFeed(songs: [], format: .iTunesRSS)
    for (offset, entry) in (document.feed.entry?.values ?? []).enumerated() {
      entry.add(number: offset + 1, to: &feed)
    }
    return feed
  }

  private struct Document: Decodable {
    let feed: Feed
  }

  private struct Feed: Decodable {
    let entry: OneOrMany<Entry>?
  }

  /// An element: its text and attributes, either of which may be missing.
  private struct Element: Decodable {
    let label: String?
    let attributes: [String: String]?

    subscript(attribute: String) -> String? { attributes?[attribute] }
    var text: String? { label?.trimmingCharacters(in: .whitespacesAndNewlines) }
  }

  /// `im:contentType`, whose inner element (`Track` in `Music`) says the kind.
  private struct ContentType: Decodable {
    let attributes: [String: String]?
    let inner: Element?

    enum CodingKeys: String, CodingKey {
      case attributes
      case inner = "im:contentType"
    }
  }

  private struct Collection: Decodable {
    let name: Element?

    enum CodingKeys: String, CodingKey {
      case name = "im:name"
    }
  }

  private struct Entry: Decodable {
    let id: Element?
    let name: Element?
    let artist: Element?
    let title: Element?
    let collection: Collection?
    let price: Element?
    let releaseDate: Element?
    let category: Element?
    let links: OneOrMany<Element>?
    let images: OneOrMany<Element>?
    let contentType: ContentType?

    enum CodingKeys: String, CodingKey {
      case id, title, category
      case name = "im:name"
      case artist = "im:artist"
      case collection = "im:collection"
      case price = "im:price"
      case releaseDate = "im:releaseDate"
      case links = "link"
      case images = "im:image"
      case contentType = "im:contentType"
    }

    /// Adds entry `number` to `feed`, as the XML form's reader adds it.
    func add(number: Int, to feed: inout SongFeed) {
      let links = links?.values ?? []
      let link = { (rel: String) in
        links.first { $0["rel"] == rel }?["href"].flatMap(URL.init(string:))
      }
      let price = price.flatMap { price in
        Decimal(string: price["amount"] ?? "", locale: Locale(identifier: "en_US_POSIX")).map {
          Price(amount: $0, currency: price["currency"] ?? "", label: price.text)
        }
      }
      let images = (images?.values ?? []).compactMap { image in
        image["height"].flatMap(Int.init).flatMap { height in
          image.text.flatMap(URL.init(string:)).map { SongImage(height: height, url: $0) }
        }
      }
      let kind = (contentType?.inner?["term"] ?? contentType?.attributes?["term"]).map(
        ItemKind.init(iTunesContentType:))
      let id = id?["im:id"]
      let artistLink = artist?["href"].flatMap(URL.init(string:))
      feed.addEntry(number: number, id: id, name: name?.text, artist: artist?.text) {
        name, artist in
        Song(
          id: id ?? self.id?.text ?? "entry \(number)", name: name, artist: artist,
          artistLink: artistLink, title: title?.text,
          album: collection?.name?.text, price: price,
          releaseDate: releaseDate?.text.flatMap { try? Date($0, strategy: .iso8601) },
          category: category?["label"] ?? category?["term"], pageLink: link("alternate"),
          previewLink: link("enclosure"), images: images.sorted { $0.height < $1.height },
          kind: kind)
      }
    }
  }
}

/// A value Apple's JSON gives as a list, or as the one element itself when there is one.
private struct OneOrMany<Value: Decodable>: Decodable {
  let values: [Value]

  init(from decoder: any Decoder) throws {
    if let values = try? [Value](from: decoder) {
      self.values = values
    } else {
      values = [try Value(from: decoder)]
    }
  }
}
