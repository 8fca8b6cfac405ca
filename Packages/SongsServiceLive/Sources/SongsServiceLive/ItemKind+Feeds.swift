import SongsService

extension ItemKind {
  /// The kind of a result of the JSON of Apple's RSS generator: `kind` is singular and
  /// camel-cased in API v1 (`song`, `musicVideo`, `iosSoftware`) and plural in v2 (`songs`,
  /// `music-videos`, `apps`). A kind not known here is kept in words (`itunesU`: "itunes u").
  init(appleJSON kind: String) {
    let known: [String: ItemKind] = [
      "song": .song, "songs": .song,
      "album": .album, "albums": .album,
      "musicvideo": .musicVideo, "musicvideos": .musicVideo, "music-videos": .musicVideo,
      "podcast": .podcast, "podcasts": .podcast,
      "podcastepisode": .podcastEpisode, "podcast-episodes": .podcastEpisode,
      "book": .book, "books": .book, "ebook": .book,
      "audiobook": .audiobook, "audiobooks": .audiobook, "audio-books": .audiobook,
      "iossoftware": .app, "macsoftware": .app, "app": .app, "apps": .app,
      "movie": .movie, "movies": .movie,
      "tvseason": .tvSeason, "tv-seasons": .tvSeason,
      "tvepisode": .tvEpisode, "tv-episodes": .tvEpisode,
    ]
    self = known[kind.lowercased()] ?? ItemKind(rawValue: Self.words(kind))
  }

  /// The kind of an iTunes RSS entry from its `im:contentType` terms: the inner one
  /// (`Music` › `Track`, `Music` › `Album`) when there is one, else the outer
  /// (`Application`, `Podcast`).
  init(iTunesContentType term: String) {
    let known: [String: ItemKind] = [
      "track": .song, "song": .song, "album": .album, "music video": .musicVideo,
      "podcast": .podcast, "podcast episode": .podcastEpisode, "book": .book, "ebook": .book,
      "audiobook": .audiobook, "application": .app, "mac application": .app,
      "software": .app, "movie": .movie, "feature movie": .movie, "tv season": .tvSeason,
      "tv episode": .tvEpisode,
    ]
    self = known[term.lowercased()] ?? ItemKind(rawValue: Self.words(term))
  }

  /// `musicVideo`, `music-videos`, `Music Video` in lower-case words.
  private static func words(_ name: String) -> String {
    var words = ""
    for character in name {
      if character == "-" || character == "_" || character == " " {
        if !words.hasSuffix(" ") { words.append(" ") }
      } else {
        if character.isUppercase, let last = words.last, last.isLowercase { words.append(" ") }
        words.append(contentsOf: character.lowercased())
      }
    }
    return words.trimmingCharacters(in: .whitespaces)
  }
}
