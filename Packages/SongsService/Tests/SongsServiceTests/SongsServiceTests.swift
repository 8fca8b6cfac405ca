import Foundation
import SongsService
import Testing
import Unimplemented

@Suite struct SongsServiceTests {
  private let feed = URL(string: "http://localhost/feeds/topsongs.xml")!

  @Test func succeedingAnswersWithItsSongs() async throws {
    let song = Song(id: "1", name: "Song", artist: "Artist")
    #expect(try await SongsService.succeeding(with: [song]).topSongs(feed).songs == [song])
  }

  @Test func failingThrowsNamingTheFeed() async {
    // Each call is an issue of this test (a known one here), besides the error it throws.
    await withKnownIssue {
      await #expect(throws: UnimplementedCall(endpoint: "SongsService.topSongs")) {
        try await SongsService.failing.topSongs(feed)
      }
    }
  }

  @Test func theLargestImageIsTheTallest() {
    let song = Song(
      id: "1", name: "Song", artist: "Artist",
      images: [55, 170, 60].map { SongImage(height: $0, url: URL(string: "http://x/\($0).png")!) })
    #expect(song.largestImage?.height == 170)
    #expect(Song(id: "2", name: "No art", artist: "Artist").largestImage == nil)
  }

  @Test func errorsSayWhatTheFeedIsAndWhichEntriesFailed() {
    #expect(
      SkippedEntry(entry: "entry 3 (id 42)", missing: "artist").description
        == "entry 3 (id 42) has no artist")
    #expect(
      SongsError.notASongsFeed(url: "http://x/f", found: "an RSS 2.0 feed").description
        == "the feed at http://x/f is an RSS 2.0 feed, not one of Apple's feeds "
        + "(iTunes RSS: Atom with the im: namespace, or its JSON form; or the JSON of Apple's "
        + "RSS generator)")
    let skipped = (1...5).map { SkippedEntry(entry: "entry \($0)", missing: "name") }
    #expect(
      SongsError.noUsableEntries(url: "http://x/f", skipped: skipped).description
        == "the feed at http://x/f has no usable entry: entry 1 has no name, "
        + "entry 2 has no name, entry 3 has no name, and 2 more")
  }
}
