import SongsService

extension SongFeed {
  /// Adds entry `number` of a feed, in either format: the song `make` builds from its name
  /// and artist when it has both (empty text counts as missing), else a skipped entry naming
  /// it by number and `id` and saying which it lacks.
  mutating func addEntry(
    number: Int, id: String?, name: String?, artist: String?,
    _ make: (_ name: String, _ artist: String) -> Song
  ) {
    guard let name, !name.isEmpty, let artist, !artist.isEmpty else {
      skipped.append(
        SkippedEntry(
          entry: "entry \(number)" + (id.map { " (id \($0))" } ?? ""),
          missing: name?.isEmpty == false ? "artist" : "name"))
      return
    }
    songs.append(make(name, artist))
  }
}
