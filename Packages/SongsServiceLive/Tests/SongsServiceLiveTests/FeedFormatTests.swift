import Foundation
import NetworkClientTestSupport
import SongsService
import SongsServiceLive
import Testing

/// A body with no headers, as a server that says nothing of its type sends it.
private func body(_ text: String) -> StubReply {
  StubReply(body: Data(text.utf8))
}

/// The error reading `reply` gives.
private func failure(_ reply: StubReply) async -> SongsError? {
  do {
    _ = try await songFeed(reply)
    return nil
  } catch {
    return error as? SongsError
  }
}

private let itunesFeed = """
  <?xml version="1.0" encoding="utf-8"?>
  <feed xmlns:im="http://itunes.apple.com/rss" xmlns="http://www.w3.org/2005/Atom">
  <entry><id im:id="7">http://server.test/song/7</id><im:name>Café Días</im:name><im:artist>Zoë</im:artist>
  <im:image height="170">http://server.test/art/7.jpg</im:image></entry>
  </feed>
  """

@Suite struct JSONFeedTests {
  private let json = """
    {"feed": {"title": "Top Songs", "country": "us", "results": [
      {"artistName": "Zoë", "id": "7", "name": "Café Días", "releaseDate": "2024-01-19",
       "kind": "songs", "artistId": "5", "artistUrl": "https://music.example/artist/5",
       "artworkUrl100": "https://art.example/7/100x100bb.jpg",
       "genres": [{"genreId": "14", "name": "Pop", "url": "https://x/14"}],
       "url": "https://music.example/song/7"},
      {"artistName": "Nobody", "id": "8", "kind": "songs"}
    ]}}
    """

  @Test func readsTheJSONOfApplesRSSGenerator() async throws {
    let read = try await songFeed(body(json))
    #expect(read.format == .appleJSON)
    #expect(
      read.songs == [
        Song(
          id: "7", name: "Café Días", artist: "Zoë",
          artistLink: URL(string: "https://music.example/artist/5"),
          releaseDate: Date(timeIntervalSince1970: 1_705_622_400), category: "Pop",
          pageLink: URL(string: "https://music.example/song/7"),
          images: [
            SongImage(height: 100, url: URL(string: "https://art.example/7/100x100bb.jpg")!)
          ],
          kind: .song)
      ])
    #expect(read.skipped == [SkippedEntry(entry: "entry 2 (id 8)", missing: "name")])
  }

  @Test func theFormatFollowsTheContentNotTheURLOrType() async throws {
    let asXML = StubReply(body: Data(json.utf8), headers: ["Content-Type": "application/atom+xml"])
    #expect(try await songFeed(asXML).format == .appleJSON)
    let asJSON = StubReply(
      body: Data(itunesFeed.utf8), headers: ["Content-Type": "application/json"])
    #expect(try await songFeed(asJSON).songs.map(\.name) == ["Café Días"])
  }

  @Test func bothFormatsGiveTheSameSong() async throws {
    let fromXML = try #require(try await songFeed(body(itunesFeed)).songs.first)
    let fromJSON = try #require(try await songFeed(body(json)).songs.first)
    #expect(
      (fromXML.id, fromXML.name, fromXML.artist) == (fromJSON.id, fromJSON.name, fromJSON.artist))
  }

  @Test func malformedJSONGivesItsLineAndColumn() async {
    guard
      case .malformedFeed(_, let reason) = await failure(body("{\"feed\": {\n  \"results\": [x]}}"))
    else {
      Issue.record("expected a malformed feed")
      return
    }
    #expect(reason.hasPrefix("malformed JSON at line 2, column 15: "))
  }

  @Test func aValueOfTheWrongTypeGivesItsPath() async {
    #expect(
      await failure(body(#"{"feed": {"results": [{"name": 3}]}}"#))
        == .malformedFeed(
          url: feedURL.absoluteString,
          reason: "malformed JSON at feed.results[0].name: expected String"))
  }

  @Test(arguments: [
    (#"{"songs": []}"#, "a JSON document without a feed (no feed.results or feed.entry)"),
    (#"[{"name": "Café Días"}]"#, "JSON without a feed (a list, not an object)"),
  ])
  func otherJSONIsNamed(text: String, found: String) async {
    #expect(await failure(body(text)) == .notASongsFeed(url: feedURL.absoluteString, found: found))
  }
}

@Suite struct OtherDocumentTests {
  @Test(arguments: [
    (
      #"<?xml version="1.0"?><rss version="2.0"><channel><item><title>a</title></item></channel></rss>"#,
      "an RSS 2.0 feed"
    ),
    (
      #"<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>a</title></entry></feed>"#,
      "an Atom feed without iTunes' im: namespace"
    ),
    ("<!DOCTYPE html>\n<html><body><p>Not found<br></body></html>", "an HTML page"),
    ("<catalog><book/></catalog>", "an XML document whose root is <catalog>"),
  ])
  func aDocumentThatIsNoSongsFeedIsNamed(text: String, found: String) async {
    #expect(await failure(body(text)) == .notASongsFeed(url: feedURL.absoluteString, found: found))
  }

  @Test func anEmptyBodySaysSo() async {
    #expect(
      await failure(body(""))
        == .malformedFeed(url: feedURL.absoluteString, reason: "the document is empty (0 bytes)"))
  }

  @Test func aRawAmpersandIsNamedWithItsPlace() async {
    let text = itunesFeed.replacingOccurrences(of: "Café Días", with: "Tom & Jerry")
    #expect(
      await failure(body(text))
        == .malformedFeed(
          url: feedURL.absoluteString,
          reason:
            "malformed XML at line 3, column 66: an `&` that does not start an entity (write `&amp;`)"
        ))
  }

  @Test func anInternalEntityIsExpanded() async throws {
    let text = itunesFeed.replacingOccurrences(
      of: "<feed ", with: #"<!DOCTYPE feed [<!ENTITY who "Zoë &amp; co">]><feed "#
    ).replacingOccurrences(of: "<im:artist>Zoë</im:artist>", with: "<im:artist>&who;</im:artist>")
    #expect(try await songs(text).first?.artist == "Zoë & co")
  }

  @Test func anExternalEntityIsNeverRead() async {
    let text = itunesFeed.replacingOccurrences(
      of: "<feed ", with: #"<!DOCTYPE feed [<!ENTITY x SYSTEM "file:///etc/passwd">]><feed "#
    ).replacingOccurrences(of: "Café Días", with: "&x;")
    guard case .malformedFeed(_, let reason) = await failure(body(text)) else {
      Issue.record("expected a malformed feed")
      return
    }
    #expect(reason.hasSuffix("the entity `&x;` is external, and external entities are never read"))
  }

  @Test func aBillionLaughsFailsAtTheBound() async {
    var declarations = #"<!ENTITY l0 "lol">"#
    for level in 1...9 {
      declarations += #"<!ENTITY l\#(level) "\#(String(repeating: "&l\(level - 1);", count: 10))">"#
    }
    let text = itunesFeed.replacingOccurrences(
      of: "<feed ", with: "<!DOCTYPE feed [\(declarations)]><feed "
    )
    .replacingOccurrences(of: "Café Días", with: "&l9;")
    guard case .malformedFeed(_, let reason) = await failure(body(text)) else {
      Issue.record("expected a malformed feed")
      return
    }
    #expect(reason.contains("its expansion passes libxml2's limits"))
  }

  @Test(arguments: [String.Encoding.utf16, .utf16BigEndian, .utf16LittleEndian, .utf32])
  func unicodeEncodingsRead(encoding: String.Encoding) async throws {
    let text = itunesFeed.replacingOccurrences(of: "utf-8", with: "UTF-16")
    let data = try #require(text.data(using: encoding))
    #expect(try await songFeed(StubReply(body: data)).songs.map(\.name) == ["Café Días"])
  }

  @Test func isoLatin1Reads() async throws {
    let text = itunesFeed.replacingOccurrences(of: "utf-8", with: "ISO-8859-1")
    let data = try #require(text.data(using: .isoLatin1))
    let song = try #require(try await songFeed(StubReply(body: data)).songs.first)
    #expect((song.name, song.artist) == ("Café Días", "Zoë"))
  }

  private func songs(_ text: String) async throws -> [Song] {
    try await songFeed(body(text)).songs
  }
}

/// The JSON form of iTunes RSS (`.../rss/topsongs/limit=2/json`), as the saved mocks of
/// Apple's feeds in public repositories have it: each element's text under `label`, its XML
/// attributes under `attributes`, read as the XML form is read.
@Suite struct ITunesRSSJSONTests {
  private let songs = """
    {"feed": {"author": {"name": {"label": "iTunes Store"}, "uri": {"label": "http://www.apple.com/itunes/"}},
     "entry": [
      {"im:name": {"label": "Café Días"},
       "im:image": [{"label": "https://art.test/7/55x55bb.png", "attributes": {"height": "55"}},
                    {"label": "https://art.test/7/170x170bb.png", "attributes": {"height": "170"}}],
       "im:collection": {"im:name": {"label": "Días - Single"},
                         "link": {"attributes": {"rel": "alternate", "type": "text/html", "href": "https://music.test/album/1"}},
                         "im:contentType": {"attributes": {"term": "Album", "label": "Album"}}},
       "im:price": {"label": "$1.29", "attributes": {"amount": "1.29000", "currency": "USD"}},
       "im:contentType": {"im:contentType": {"attributes": {"term": "Track", "label": "Track"}},
                          "attributes": {"term": "Music", "label": "Music"}},
       "rights": {"label": "℗ 2024 Zoë"},
       "title": {"label": "Café Días - Zoë"},
       "link": [{"attributes": {"rel": "alternate", "type": "text/html", "href": "https://music.test/song/7"}},
                {"im:duration": {"label": "30000"},
                 "attributes": {"title": "Preview", "rel": "enclosure", "type": "audio/x-m4a", "href": "https://audio.test/7.m4a", "im:assetType": "preview"}}],
       "id": {"label": "https://music.test/song/7", "attributes": {"im:id": "7"}},
       "im:artist": {"label": "Zoë", "attributes": {"href": "https://music.test/artist/5"}},
       "category": {"attributes": {"im:id": "14", "term": "Pop", "scheme": "https://music.test/genre/14", "label": "Pop"}},
       "im:releaseDate": {"label": "2024-01-19T00:00:00-07:00", "attributes": {"label": "January 19, 2024"}}},
      {"im:name": {"label": "No Artist"}, "id": {"label": "https://music.test/song/8", "attributes": {"im:id": "8"}}}
     ],
     "updated": {"label": "2024-01-20T01:00:00-07:00"},
     "title": {"label": "iTunes Store: Top Songs"}}}
    """

  @Test func aSongReadsAsFromTheXMLForm() async throws {
    let feed = try await songFeed(body(songs))
    #expect(feed.format == .iTunesRSS)
    #expect(feed.skipped == [SkippedEntry(entry: "entry 2 (id 8)", missing: "artist")])
    let song = try #require(feed.songs.first)
    #expect(song.id == "7")
    #expect(song.name == "Café Días")
    #expect(song.artist == "Zoë")
    #expect(song.artistLink == URL(string: "https://music.test/artist/5"))
    #expect(song.title == "Café Días - Zoë")
    #expect(song.album == "Días - Single")
    #expect(song.price == Price(amount: Decimal(string: "1.29")!, currency: "USD", label: "$1.29"))
    #expect(song.category == "Pop")
    #expect(song.pageLink == URL(string: "https://music.test/song/7"))
    #expect(song.previewLink == URL(string: "https://audio.test/7.m4a"))
    #expect(song.images.map(\.height) == [55, 170])
    #expect(song.releaseDate == (try Date("2024-01-19T07:00:00Z", strategy: .iso8601)))
    #expect(song.kind == .song)
    let fromXML = try #require(try await songFeed(body(itunesFeed)).songs.first)
    #expect((fromXML.id, fromXML.name, fromXML.artist) == (song.id, song.name, song.artist))
  }

  /// Every kind the saved mocks hold: albums, music videos, podcasts (whose `im:contentType`
  /// has no inner element); a feed of one entry has an object where others have a list.
  @Test(arguments: [
    (
      #"{"im:contentType": {"im:contentType": {"attributes": {"term": "Album"}}, "attributes": {"term": "Music"}}}"#,
      ItemKind.album
    ),
    (
      #"{"im:contentType": {"im:contentType": {"attributes": {"term": "Music Video"}}, "attributes": {"term": "Music"}}}"#,
      .musicVideo
    ),
    (#"{"im:contentType": {"attributes": {"term": "Podcast", "label": "Podcast"}}}"#, .podcast),
  ])
  func everyKindIsShown(contentType: String, kind: ItemKind) async throws {
    let fields = String(contentType.dropFirst().dropLast())
    let one =
      #"{"feed": {"entry": {"im:name": {"label": "N"}, "im:artist": {"label": "A"}, "#
      + fields + "}}}"
    let feed = try await songFeed(body(one))
    #expect(feed.songs.map(\.kind) == [kind])
  }
}
