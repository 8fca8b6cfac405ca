import Foundation
import SongsService
import Synchronization
import Testing
import TopSongsFeature

private let feed = URL(string: "http://server.test/feeds/topsongs.xml")!
private let songs = (1...5).map { Song(id: "\($0)", name: "Song \($0)", artist: "Artist \($0)") }

@Suite struct TopSongsViewModelTests {
  @Test func startsEmptyAndLoadsNumberedRows() async {
    let model = TopSongsViewModel(service: .succeeding(with: songs), feed: feed)
    #expect(model.state() == TopSongsViewModel.State())
    await model.load()
    #expect(model.state().rows.map(\.number) == [1, 2, 3, 4, 5])
    #expect(model.state().rows.map(\.song) == songs)
    #expect(!model.state().isLoading)
  }

  @Test func limitKeepsTheFirstSongs() async {
    let model = TopSongsViewModel(service: .succeeding(with: songs), feed: feed, limit: 2)
    await model.load()
    #expect(model.state().rows.map(\.song.name) == ["Song 1", "Song 2"])
  }

  @Test func aFailureKeepsTheRowsAndSaysWhy() async {
    let calls = Calls()
    let service = SongsService { _ in
      if calls.next() > 1 {
        throw SongsError.malformedFeed(url: feed.absoluteString, reason: "bad")
      }
      return SongFeed(songs: songs, format: .iTunesRSS)
    }
    let model = TopSongsViewModel(service: service, feed: feed)
    await model.load()
    await model.load()
    #expect(model.state().rows.count == 5)
    #expect(
      model.state().errorMessage
        == "the feed at http://server.test/feeds/topsongs.xml is not valid: bad")
  }

  @Test func skippedEntriesAreKeptWhateverTheLimit() async {
    let skipped = [SkippedEntry(entry: "entry 6", missing: "name")]
    let service = SongsService { _ in SongFeed(songs: songs, skipped: skipped, format: .appleJSON) }
    let model = TopSongsViewModel(service: service, feed: feed, limit: 1)
    await model.load()
    #expect(model.state().rows.count == 1)
    #expect(model.state().skipped == skipped)
  }

  @Test func asksForTheGivenFeed() async {
    let asked = Calls()
    let service = SongsService { url in
      #expect(url == feed)
      _ = asked.next()
      return SongFeed(songs: [], format: .iTunesRSS)
    }
    await TopSongsViewModel(service: service, feed: feed).load()
    #expect(asked.count == 1)
  }

  @Test func priceTextPrefersTheLabel() {
    var song = songs[0]
    #expect(TopSongsViewModel.Row(number: 1, song: song).priceText == "-")
    song.price = Price(amount: Decimal(string: "1.29")!, currency: "USD")
    #expect(TopSongsViewModel.Row(number: 1, song: song).priceText == "1.29 USD")
    song.price?.label = "$1.29"
    #expect(TopSongsViewModel.Row(number: 1, song: song).priceText == "$1.29")
  }
}

/// Counts calls from any task.
private final class Calls: Sendable {
  private let value = Mutex(0)
  var count: Int { value.withLock { $0 } }
  func next() -> Int {
    value.withLock {
      $0 += 1
      return $0
    }
  }
}
