import Foundation
import NetworkClientTestSupport
import SongsService
import Testing

@testable import SongsServiceLive

/// Apple's feeds of every kind, in both formats, written after the shapes Apple serves: the
/// RSS generator's JSON in API v1 (`rss.itunes.apple.com/api/v1/…`, singular camel-cased
/// kinds) and v2 (`rss.applemarketingtools.com/api/v2/…`, plural kinds), and iTunes RSS with
/// its `im:contentType` terms. Each entry is read as what it is.
@Suite struct ItemKindTests {
  /// An RSS generator JSON feed of one result of `kind`.
  private func json(kind: String) -> StubReply {
    StubReply(
      body: Data(
        """
        {"feed": {"title": "Top", "country": "us", "results": [
          {"artistName": "Maker", "id": "1", "name": "Thing", "releaseDate": "2019-06-07",
           "kind": "\(kind)", "artistId": "2", "url": "https://store.example/1"}]}}
        """.utf8))
  }

  /// An iTunes RSS feed of one entry whose content type is `outer` (› `inner`).
  private func xml(outer: String, inner: String?) -> StubReply {
    let innerElement = inner.map { #"<im:contentType term="\#($0)" label="\#($0)"/>"# } ?? ""
    return StubReply(
      body: Data(
        """
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns:im="http://itunes.apple.com/rss" xmlns="http://www.w3.org/2005/Atom">
        <entry><id im:id="1">https://store.example/1</id><im:name>Thing</im:name>
        <im:artist>Maker</im:artist>
        <im:contentType term="\(outer)" label="\(outer)">\(innerElement)</im:contentType>
        <im:collection><im:name>Box</im:name>
        <im:contentType term="Music" label="Music"><im:contentType term="Album" label="Album"/></im:contentType>
        </im:collection></entry>
        </feed>
        """.utf8))
  }

  @Test(arguments: [
    ("song", ItemKind.song), ("songs", .song), ("album", .album), ("albums", .album),
    ("musicVideo", .musicVideo), ("music-videos", .musicVideo), ("podcast", .podcast),
    ("podcasts", .podcast), ("podcast-episodes", .podcastEpisode), ("book", .book),
    ("books", .book), ("audio-books", .audiobook), ("iosSoftware", .app),
    ("macSoftware", .app), ("apps", .app), ("movie", .movie), ("tvSeason", .tvSeason),
    ("itunesU", ItemKind(rawValue: "itunes u")),
  ])
  func theJSONOfEachAPIVersionIsReadAsItsKind(kind: String, expected: ItemKind) async throws {
    let read = try await songFeed(json(kind: kind))
    #expect(read.songs.map(\.kind) == [expected])
    #expect(read.songs.map(\.name) == ["Thing"])
  }

  @Test(arguments: [
    ("Music", "Track" as String?, ItemKind.song), ("Music", "Album", .album),
    ("Music Video", nil, .musicVideo), ("Podcast", nil, .podcast),
    ("Application", nil, .app), ("Book", nil, .book), ("Audiobook", nil, .audiobook),
    ("Movie", nil, .movie), ("TV Season", nil, .tvSeason),
  ])
  func iTunesRSSIsReadAsItsContentType(outer: String, inner: String?, expected: ItemKind)
    async throws
  {
    // The collection's own content type (an album) is not the entry's.
    let read = try await songFeed(xml(outer: outer, inner: inner))
    #expect(read.songs.map(\.kind) == [expected])
  }

  /// A feed that does not say what its entries are leaves the kind unknown, not "song".
  @Test func aFeedThatDoesNotSayLeavesTheKindUnknown() async throws {
    let read = try await songFeed(
      StubReply(body: Data(#"{"feed": {"results": [{"name": "A", "artistName": "B"}]}}"#.utf8)))
    #expect(read.songs.map(\.kind) == [nil])
  }

  @Test func theKindIsInTheJSONOfAnEntry() throws {
    let entry = Song(id: "1", name: "A", artist: "B", kind: .musicVideo)
    let text = String(decoding: try JSONEncoder().encode(entry), as: UTF8.self)
    #expect(text.contains(#""kind":"music video""#))
    #expect(try JSONDecoder().decode(Song.self, from: Data(text.utf8)) == entry)
  }
}
