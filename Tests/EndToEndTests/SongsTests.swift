import Foundation
import Testing

/// `fetcher songs` against server.py's feed.
@Suite struct SongsTests {
  private func feed(_ server: TestServer, _ query: String = "") -> String {
    "\(server.rootURL)/feeds/topsongs.xml\(query)"
  }

  @Test func printsANumberedTableOfTheFeed() async throws {
    let server = try TestServer()
    let run = try await StateFolder().fetcher.run("songs", "--feed", feed(server))
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.outputLines.count == 26)
    #expect(
      run.outputLines[0].split(separator: " ").map(String.init) == ["#", "Name", "Artist", "Price"])
    #expect(run.outputLines[1].hasPrefix(" 1  Midnight Hearts"))
    #expect(run.outputLines[1].hasSuffix("$1.29"))
    #expect(run.outputLines[25].hasPrefix("25  "))
  }

  @Test func jsonHoldsTheStructuredSongs() async throws {
    let server = try TestServer()
    let run = try await StateFolder().fetcher.run(
      "songs", "--feed", feed(server), "--json", "--limit", "3")
    #expect(run.status == 0, "\(run.standardError)")
    let songs = try jsonLines(run.standardOutput)
    #expect(songs.count == 3)
    #expect(songs[0]["name"] as? String == "Midnight Hearts")
    #expect(songs[0]["artist"] as? String == "The Night Owls")
    #expect(songs[0]["album"] as? String == "Midnight Hearts - Single")
    #expect((songs[0]["price"] as? [String: Any])?["currency"] as? String == "USD")
    #expect(
      (songs[0]["images"] as? [[String: Any]])?.compactMap { $0["height"] as? Int } == [
        55, 60, 170,
      ])
    #expect(songs[0]["previewLink"] as? String == "\(server.rootURL)/preview/1440000000.m4a")
  }

  @Test func artWritesTheLargestImagesAsPNGFiles() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    let folder = state.url.appendingPathComponent("art")
    let run = try await state.fetcher.run(
      "songs", "--feed", feed(server), "--limit", "4", "--art", folder.path)
    #expect(run.status == 0, "\(run.standardError)")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(files == ["1440000000.png", "1440007919.png", "1440015838.png", "1440023757.png"])
    for file in files {
      let data = try Data(contentsOf: folder.appendingPathComponent(file))
      #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
      // The IHDR width and height: the 170-pixel image, the largest.
      #expect(data[16..<24] == Data([0, 0, 0, 170, 0, 0, 0, 170]))
    }
    #expect(run.standardError.contains(" done "))

    let again = try await state.fetcher.run(
      "songs", "--feed", feed(server), "--limit", "4", "--art", folder.path)
    #expect(again.status == 0, "\(again.standardError)")
    #expect(!again.standardError.contains(" done "))
    // Cover art is the command's own download, kept apart from the user's.
    let list = try await state.fetcher.run("downloads", "list")
    #expect(list.standardOutput.isEmpty && list.standardError == "fetcher: no downloads\n")
  }

  @Test func theXMLAndTheJSONFeedGiveTheSameSongs() async throws {
    let server = try TestServer()
    let state = try StateFolder()
    var read: [[[String: String]]] = []
    for path in ["/feeds/topsongs.xml", "/feeds/topsongs.json"] {
      let run = try await state.fetcher.run(
        "songs", "--feed", server.rootURL + path + "?entries=40", "--json")
      #expect(run.status == 0, "\(run.standardError)")
      let songs = try jsonLines(run.standardOutput)
      read.append(
        songs.map { song in
          ["id", "name", "artist", "artistLink", "category", "pageLink"].reduce(into: [:]) {
            $0[$1] = song[$1] as? String
          }
        })
    }
    #expect(read[0].count == 40)
    #expect(read[0] == read[1])
  }

  @Test func aJSONFeedsTableHasNoPriceColumn() async throws {
    let server = try TestServer()
    let run = try await StateFolder().fetcher.run(
      "songs", "--feed", "\(server.rootURL)/feeds/topsongs.json", "--limit", "2")
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      run.outputLines.map { $0.split(separator: " ").joined(separator: " ") } == [
        "# Name Artist", "1 Midnight Hearts The Night Owls", "2 Golden Waves DJ Parallax",
      ])
  }

  @Test func aDocumentThatIsNoSongsFeedFailsSayingWhatItIs() async throws {
    let server = try TestServer()
    let run = try await StateFolder().fetcher.run("songs", "--feed", server.rootURL + "/")
    #expect(run.status == 1)
    #expect(run.standardOutput.isEmpty)
    #expect(
      run.standardError
        == "fetcher: the feed at \(server.rootURL)/ is a JSON document without a feed (no "
        + "feed.results or feed.entry), not one of Apple's feeds (iTunes RSS: Atom with the im: "
        + "namespace, or its JSON form; or the JSON of Apple's RSS generator)\n")
  }

  /// The issue's case: Apple's RSS generator API v1 says `"kind": "song"` (server.py, as v2,
  /// says `songs`), and its album feeds, and iTunes RSS feeds of apps, were refused or listed
  /// as songs. Each is listed as what it is, from a real server (nginx).
  @Test func applesFeedsOfOtherKindsAreListedAsWhatTheyAre() async throws {
    func result(_ id: Int, _ name: String, _ kind: String) -> String {
      #"{"artistName": "Artist \#(id)", "id": "\#(id)", "releaseDate": "2019-05-31", "name": "\#(name)", "kind": "\#(kind)", "artistId": "9\#(id)", "url": "https://store.example/\#(id)"}"#
    }
    let songs = #"{"feed": {"title": "Top Songs", "results": [\#(result(1, "One", "song"))]}}"#
    let albums =
      #"{"feed": {"title": "Top Albums", "results": [\#(result(2, "Two", "album")), \#(result(3, "Three", "album"))]}}"#
    let apps = """
      <?xml version="1.0" encoding="utf-8"?>
      <feed xmlns:im="http://itunes.apple.com/rss" xmlns="http://www.w3.org/2005/Atom">
      <entry><id im:id="4">https://store.example/4</id><im:name>Four</im:name>
      <im:artist>Maker</im:artist><im:contentType term="Application" label="Application"/>
      </entry></feed>
      """
    let server = try NginxServer(files: [
      "songs.json": Data(songs.utf8), "albums.json": Data(albums.utf8),
      "apps.xml": Data(apps.utf8),
    ])
    let state = try StateFolder()
    let song = try await state.fetcher.run("songs", "--feed", server.rootURL + "/songs.json")
    #expect(song.status == 0, "\(song.standardError)")
    #expect(song.outputLines == ["#  Name  Artist", "1  One   Artist 1"])
    let album = try await state.fetcher.run("songs", "--feed", server.rootURL + "/albums.json")
    #expect(
      album.outputLines == [
        "#  Name   Artist    Kind", "1  Two    Artist 2  album", "2  Three  Artist 3  album",
      ])
    let app = try await state.fetcher.run("songs", "--feed", server.rootURL + "/apps.xml", "--json")
    #expect(app.standardOutput.contains(#""kind":"app""#), "\(app.standardOutput)")
  }

  @Test func aMalformedFeedFailsWithItsPosition() async throws {
    let server = try TestServer()
    let run = try await StateFolder().fetcher.run("songs", "--feed", feed(server, "?malformed=1"))
    #expect(run.status == 1)
    #expect(run.standardOutput.isEmpty)
    #expect(run.standardError.hasPrefix("fetcher: the feed at "))
    #expect(run.standardError.contains("malformed XML at line "))
    #expect(run.standardError.split(separator: "\n").count == 1)
  }

  @Test func anHTTPErrorFailsWithTheStatus() async throws {
    let server = try TestServer()
    let run = try await StateFolder().fetcher.run(
      "songs", "--feed", "\(server.rootURL)/feeds/none.xml")
    #expect(run.status == 1)
    #expect(run.standardError.contains("answered HTTP 404"))
  }

  @Test func aDeadServerFailsWithOneLine() async throws {
    let server = try TestServer()
    let url = feed(server)
    server.stop()
    let run = try await StateFolder().fetcher.run("songs", "--feed", url)
    #expect(run.status == 1)
    #expect(run.standardError.hasPrefix("fetcher: cannot reach "))
    #expect(run.standardError.split(separator: "\n").count == 1)
  }
}

/// The objects of `text`, one JSON object a line (`--json`).
private func jsonLines(_ text: String) throws -> [[String: Any]] {
  try text.split(separator: "\n").map { line in
    try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
  }
}
