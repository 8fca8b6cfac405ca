import Foundation
import SongsService

/// Maps the results of the JSON of Apple's RSS generator (`{"feed": {"results": [...]}}`,
/// API v1 and v2) to entries of their kind: songs, albums, apps, … It carries fewer fields
/// than iTunes RSS: no title, album, price, preview or category scheme, and one 100-pixel
/// image. The JSON form of iTunes RSS (`feed.entry`) is read by `ITunesRSSJSONReader`.
enum AppleJSONReader {
  /// The entries of the JSON feed in `data`, in order. Throws `MalformedJSON` for a document
  /// that is not JSON of this shape, and `FeedKind.Other` for JSON that is no such feed.
  static func feed(in data: Data) throws -> SongFeed {
    let document: Document
    do {
      document = try JSONDecoder().decode(Document.self, from: data)
      if document.feed?.results == nil, document.feed?.hasEntries == true {
        return try ITunesRSSJSONReader.feed(in: data)
      }
    } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
      throw FeedKind.Other(found: "JSON without a feed (a list, not an object)")
    } catch let error as DecodingError {
      throw MalformedJSON(error, in: data)
    }
    guard let results = document.feed?.results else {
      throw FeedKind.Other(found: "a JSON document without a feed (no feed.results or feed.entry)")
    }
    var feed = SongFeed(songs: [], format: .appleJSON)
    for (offset, result) in results.enumerated() {
      result.add(number: offset + 1, to: &feed)
    }
    return feed
  }

  private struct Document: Decodable {
    let feed: Feed?
  }

  private struct Feed: Decodable {
    let results: [Result]?
    /// Whether it has `entry`, as the old iTunes JSON does.
    let hasEntries: Bool

    enum CodingKeys: String, CodingKey {
      case results, entry
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      results = try container.decodeIfPresent([Result].self, forKey: .results)
      hasEntries = container.contains(.entry)
    }
  }

  private struct Genre: Decodable {
    let name: String?
  }

  private struct Result: Decodable {
    let id: String?
    let name: String?
    let artistName: String?
    let artistUrl: String?
    let releaseDate: String?
    let kind: String?
    let artworkUrl100: String?
    let genres: [Genre]?
    let url: String?

    /// Adds result `number` to `feed`, of its kind, or as skipped when it lacks a name or an
    /// artist.
    func add(number: Int, to feed: inout SongFeed) {
      let name = name?.trimmingCharacters(in: .whitespacesAndNewlines)
      let artist = artistName?.trimmingCharacters(in: .whitespacesAndNewlines)
      feed.addEntry(number: number, id: id, name: name, artist: artist) { name, artist in
        Song(
          id: id ?? "entry \(number)", name: name, artist: artist,
          artistLink: artistUrl.flatMap(URL.init(string:)),
          releaseDate: releaseDate.flatMap {
            try? Date.ISO8601FormatStyle().year().month().day().parse($0)
          },
          category: genres?.first?.name, pageLink: url.flatMap(URL.init(string:)),
          images: artworkUrl100.flatMap(URL.init(string:)).map {
            [SongImage(height: 100, url: $0)]
          } ?? [], kind: kind.map(ItemKind.init(appleJSON:)))
      }
    }
  }
}

/// JSON that could not be decoded, in words with the place: the line and column of a syntax
/// error (JSONDecoder on Linux gives none, so JSONSerialization's offset is turned into one),
/// or the path of a value of the wrong type.
struct MalformedJSON: Error, CustomStringConvertible {
  let description: String

  init(_ error: DecodingError, in data: Data) {
    switch error {
    case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
      description = "malformed JSON at \(Self.path(context.codingPath)): expected \(type)"
    case .keyNotFound(let key, let context):
      description = "malformed JSON at \(Self.path(context.codingPath + [key])): missing"
    case .dataCorrupted:
      description = Self.syntaxError(in: data)
    @unknown default:
      description = "malformed JSON: \(error)"
    }
  }

  private static func path(_ keys: [any CodingKey]) -> String {
    keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
      .trimmingPrefix(".").description
  }

  /// JSONSerialization's account of the syntax error, "around character N" made a line and
  /// a column.
  private static func syntaxError(in data: Data) -> String {
    do {
      _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
      return "malformed JSON"
    } catch {
      let debug = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
      guard let match = debug.firstMatch(of: #/^(.*?) around character (\d+)\.?$/#),
        let offset = Int(match.output.2)
      else { return "malformed JSON: " + debug.lowercased().trimmingSuffix(".") }
      let before = data.prefix(offset)
      let line = before.count { $0 == UInt8(ascii: "\n") } + 1
      let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? data.startIndex
      let column =
        String(decoding: data[lineStart..<(data.startIndex + offset)], as: UTF8.self)
        .unicodeScalars.count + 1
      return "malformed JSON at line \(line), column \(column): "
        + match.output.1.lowercased()
    }
  }
}

extension String {
  fileprivate func trimmingSuffix(_ suffix: String) -> String {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
  }
}
