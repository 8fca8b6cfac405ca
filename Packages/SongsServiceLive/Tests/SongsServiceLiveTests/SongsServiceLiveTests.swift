import Foundation
import NetworkClient
import NetworkClientTestSupport
import SongsService
import SongsServiceLive
import Testing

let feedURL = URL(string: "http://server.test/feeds/topsongs.xml")!

/// A feed in the iTunes RSS schema holding `entries`.
private func feed(_ entries: String...) -> StubReply {
  StubReply(
    body: Data(
      """
      <?xml version="1.0" encoding="utf-8"?>
      <feed xmlns:im="http://itunes.apple.com/rss" xmlns="http://www.w3.org/2005/Atom" xml:lang="en">
      <id>http://server.test/feeds/topsongs.xml</id><title>Top Songs</title>
      \(entries.joined(separator: "\n"))
      </feed>
      """.utf8), headers: ["Content-Type": "application/atom+xml"])
}

private let fullEntry = """
  <entry>
    <id im:id="1440818839">http://server.test/song/1440818839</id>
    <title>Tom &amp; Jerry - The Cartoons</title>
    <im:name><![CDATA[Tom & Jerry]]></im:name>
    <link rel="alternate" type="text/html" href="http://server.test/song/1440818839"/>
    <im:contentType term="Music" label="Music"><im:contentType term="Track" label="Track"/></im:contentType>
    <category im:id="14" term="Pop" scheme="http://server.test/genre/14" label="Pop"/>
    <link title="Preview" rel="enclosure" type="audio/x-m4a" href="http://server.test/preview/1.m4a" im:assetType="preview"><im:duration>30000</im:duration></link>
    <im:artist href="http://server.test/artist/7">The Cartoons</im:artist>
    <im:price amount="1.29000" currency="USD">$1.29</im:price>
    <im:image height="55">http://server.test/art/1440818839-55.png</im:image>
    <im:image height="170">http://server.test/art/1440818839-170.png</im:image>
    <im:image height="60">http://server.test/art/1440818839-60.png</im:image>
    <im:collection><im:name>Greatest Hits</im:name><link rel="alternate" type="text/html" href="http://server.test/album/9"/><im:contentType term="Music" label="Music"><im:contentType term="Album" label="Album"/></im:contentType></im:collection>
    <im:releaseDate label="January 19, 2024">2024-01-19T00:00:00-07:00</im:releaseDate>
  </entry>
  """

func songFeed(_ reply: StubReply) async throws -> SongFeed {
  try await SongsService.live(client: StubSession(replies: reply).client).topSongs(feedURL)
}

private func songs(_ reply: StubReply) async throws -> [Song] {
  try await songFeed(reply).songs
}

@Suite struct FeedMappingTests {
  @Test func mapsEveryField() async throws {
    let song = try #require(try await songs(feed(fullEntry)).first)
    #expect(song.id == "1440818839")
    #expect(song.name == "Tom & Jerry")
    #expect(song.artist == "The Cartoons")
    #expect(song.artistLink == URL(string: "http://server.test/artist/7"))
    #expect(song.title == "Tom & Jerry - The Cartoons")
    #expect(song.album == "Greatest Hits")
    #expect(song.price == Price(amount: Decimal(string: "1.29")!, currency: "USD", label: "$1.29"))
    #expect(song.releaseDate == Date(timeIntervalSince1970: 1_705_647_600))
    #expect(song.category == "Pop")
    #expect(song.pageLink == URL(string: "http://server.test/song/1440818839"))
    #expect(song.previewLink == URL(string: "http://server.test/preview/1.m4a"))
    #expect(song.images.map(\.height) == [55, 60, 170])
    #expect(song.largestImage?.url == URL(string: "http://server.test/art/1440818839-170.png"))
  }

  @Test func keepsEntriesInOrderAndEachEntrysOwnFields() async throws {
    let second = "<entry><im:name>Second</im:name><im:artist>B</im:artist></entry>"
    let mapped = try await songs(feed(fullEntry, second))
    #expect(mapped.map(\.name) == ["Tom & Jerry", "Second"])
    #expect(mapped[1].images.isEmpty)
    #expect(mapped[1].price == nil)
    #expect(mapped[1].album == nil)
  }

  @Test func missingOptionalFieldsNeverDropTheSong() async throws {
    let bare = """
      <entry><im:name>Bare</im:name><im:artist>Someone</im:artist>
      <im:releaseDate>not a date</im:releaseDate><im:price amount="lots" currency="USD"/>
      <im:image>http://server.test/no-height.png</im:image></entry>
      """
    let song = try #require(try await songs(feed(bare)).first)
    #expect(song == Song(id: "entry 1", name: "Bare", artist: "Someone"))
  }

  @Test func entriesWithoutANameOrAnArtistAreSkippedAndListed() async throws {
    let noArtist = #"<entry><id im:id="99">x</id><im:name>Lonely</im:name></entry>"#
    let emptyName = "<entry><im:name> </im:name><im:artist>A</im:artist></entry>"
    let read = try await songFeed(feed(fullEntry, noArtist, emptyName))
    #expect(read.songs.map(\.name) == ["Tom & Jerry"])
    #expect(
      read.skipped == [
        SkippedEntry(entry: "entry 2 (id 99)", missing: "artist"),
        SkippedEntry(entry: "entry 3", missing: "name"),
      ])
    #expect(read.format == .iTunesRSS)
  }

  @Test func aFeedWithEntriesAndNoSongIsAnError() async throws {
    await #expect(
      throws: SongsError.noUsableEntries(
        url: feedURL.absoluteString, skipped: [SkippedEntry(entry: "entry 1", missing: "name")])
    ) {
      try await songs(feed("<entry><im:artist>A</im:artist></entry>"))
    }
  }

  @Test func aFeedWithNoEntriesIsAnEmptyList() async throws {
    #expect(try await songs(feed()).isEmpty)
  }

  @Test func aMalformedFeedIsAnErrorWithItsPosition() async throws {
    let reply = StubReply(body: Data("<feed><entry><im:name>x</entry></feed>".utf8))
    do {
      _ = try await songs(reply)
      Issue.record("expected an error")
    } catch let error as SongsError {
      guard case .malformedFeed(let url, let reason) = error else {
        Issue.record("expected a malformed feed, got \(error)")
        return
      }
      #expect(url == feedURL.absoluteString)
      #expect(reason.contains("line 1"))
    }
  }

  @Test func anHTTPErrorIsANetworkError() async throws {
    await #expect(throws: NetworkError.self) {
      try await songs(StubReply(status: 503, body: Data("down".utf8)))
    }
  }

  @Test func asksForTheFeedOnce() async throws {
    let session = StubSession(replies: feed(fullEntry))
    _ = try await SongsService.live(client: session.client).topSongs(feedURL)
    #expect(session.requestedURLs == [feedURL.absoluteString])
  }
}
