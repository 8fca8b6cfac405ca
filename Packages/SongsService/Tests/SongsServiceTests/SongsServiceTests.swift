import Foundation
import SongsService
import Testing

@Suite struct SongsServiceTests {
  private let feed = URL(string: "http://localhost/feeds/topsongs.xml")!

  @Test func succeedingAnswersWithItsSongs() async throws {
    let song = Song(id: "1", name: "Song", artist: "Artist")
    #expect(try await SongsService.succeeding(with: [song]).topSongs(feed) == [song])
  }

  @Test func failingThrowsNamingTheFeed() async {
    await #expect(throws: UnexpectedSongsServiceCall(feed: feed)) {
      try await SongsService.failing.topSongs(feed)
    }
  }

  @Test func theLargestImageIsTheTallest() {
    let song = Song(
      id: "1", name: "Song", artist: "Artist",
      images: [55, 170, 60].map { SongImage(height: $0, url: URL(string: "http://x/\($0).png")!) })
    #expect(song.largestImage?.height == 170)
    #expect(Song(id: "2", name: "No art", artist: "Artist").largestImage == nil)
  }

  @Test func errorsNameTheEntryAndTheField() {
    #expect(
      SongsError.missingField("artist", entry: "entry 3 (id 42)").description
        == "entry 3 (id 42) has no artist")
  }
}
