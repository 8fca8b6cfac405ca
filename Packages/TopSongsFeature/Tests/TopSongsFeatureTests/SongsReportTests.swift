import Foundation
import SongsService
import Testing
import TopSongsFeature

@Suite struct SongsReportTests {
  private func row(_ number: Int, _ name: String, _ artist: String, price: Price? = nil)
    -> TopSongsViewModel.Row
  {
    TopSongsViewModel.Row(
      number: number, song: Song(id: "\(number)", name: name, artist: artist, price: price))
  }

  @Test func theTableHasColumnsAsWideAsTheirWidestText() {
    let table = SongsReport(rows: [
      row(1, "Hello", "Adele", price: Price(amount: 1.29, currency: "USD", label: "$1.29")),
      row(10, "A", "Someone Else"),
    ]).table()
    #expect(
      table == """
         #  Name   Artist        Price
         1  Hello  Adele         $1.29
        10  A      Someone Else  -

        """)
  }

  /// Apple's JSON feeds have no prices: no column for them.
  @Test func withoutPricesThereIsNoPriceColumn() {
    #expect(
      SongsReport(rows: [row(1, "Song", "Artist")]).table() == "#  Name  Artist\n1  Song  Artist\n")
  }

  /// An album feed, or one that mixes kinds, says what each entry is; a songs feed needs no
  /// column for it.
  @Test func entriesThatAreNotSongsSayTheirKind() {
    var album = row(1, "Thriller", "Michael Jackson")
    album.song.kind = .album
    var song = row(2, "Beat It", "Michael Jackson")
    song.song.kind = .song
    #expect(
      SongsReport(rows: [album, song]).table() == """
        #  Name      Artist           Kind
        1  Thriller  Michael Jackson  album
        2  Beat It   Michael Jackson  song

        """)
    #expect(
      SongsReport(rows: [song]).table() == "#  Name     Artist\n2  Beat It  Michael Jackson\n")
  }

  /// A name from the feed cannot reach the terminal raw.
  @Test func controlCharactersInNamesAreShownEscaped() {
    let table = SongsReport(rows: [row(1, "Bad\u{1B}]52;c;x\u{07}", "A")]).table()
    #expect(!table.contains("\u{1B}") && table.contains(#"\x1B"#))
  }

  @Test func jsonIsOneSongALine() throws {
    let json = SongsReport(rows: [row(1, "Song", "Artist"), row(2, "Other", "Artist")]).json()
    let lines = json.split(separator: "\n")
    #expect(lines.count == 2 && json.hasSuffix("\n"))
    let songs = try lines.map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    #expect(songs.map { $0?["name"] as? String } == ["Song", "Other"])
  }
}
