import ArgumentParser
import DownloadClient
import Foundation
import HTTPClient
import SongsService
import SongsServiceLive
import StyleGuide
import TopSongsFeature

/// `fetcher songs`: the top songs of an iTunes RSS feed or of the JSON of Apple's RSS
/// generator, and optionally their cover art.
struct SongsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "songs",
    abstract: "List the top songs of an iTunes RSS feed or Apple's JSON feed.",
    discussion: """
      The default feed is server.py's. The format is read from the content: iTunes RSS \
      (Atom with the im: namespace) or the JSON of Apple's RSS generator (API v1 or v2). \
      Apple's feeds of albums, music videos, podcasts, books or apps are listed too, with a \
      Kind column (and "kind" in the JSON) saying what each entry is. Entries without a \
      name or an artist are skipped, and named in one line on standard error. --art \
      downloads each song's largest cover image with the download manager (progress on \
      standard error) as <id>.png, .jpg, .gif or .webp, as its content says; images already \
      there are kept.
      """)

  @Option(help: "The feed's http or https URL.")
  var feed = ServerOptions.defaultRootURL + "/feeds/topsongs.xml"

  @Option(parsing: .unconditional, help: "Show at most this many songs.")
  var limit: Int?

  @Flag(help: "Print the songs as JSON.")
  var json = false

  @Option(help: "Download each song's largest image into this folder.")
  var art: String?

  @OptionGroup var connection: ConnectionOptions

  @OptionGroup var headerOptions: RequestHeaderOptions

  /// The request headers, `--cookie`'s NAME=VALUE among them.
  private var requestHeaders: RequestHeaderOptions {
    headerOptions.adding(cookies: connection.cookieData)
  }

  @OptionGroup var exchangeTime: ExchangeTimeOptions

  func validate() throws {
    guard let url = URL(string: feed), url.isHTTP else {
      throw ValidationError("--feed takes an http or https URL, not \(feed)")
    }
    if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
  }

  func run() async throws {
    let feedURL = URL(string: feed)!
    let environment = AppEnvironment.live(
      http: connection.httpClient(), headers: requestHeaders.fields, named: feedURL,
      maxTime: exchangeTime.maxTime.duration)
    let model = TopSongsViewModel(service: environment.songs, feed: feedURL, limit: limit)
    await model.load()
    let state = model.state()
    if let message = state.errorMessage { throw failure(message) }
    if !state.skipped.isEmpty {
      let count = state.skipped.count
      Terminal.writeError(
        "fetcher: skipped \(count) \(count == 1 ? "entry" : "entries") without a name or an "
          + "artist: \(SkippedEntry.summary(state.skipped).printable)\n")
    }
    let report = SongsReport(rows: state.rows)
    try Terminal.write(json ? report.json() : report.table())
    if let art {
      try await downloadArt(of: state.rows, into: art, feed: feedURL, environment: environment)
    }
  }

  /// Downloads the largest image of each song into `path`, named after the song's id with
  /// the extension its content calls for. The secret headers go only to images on the
  /// `feed`'s origin.
  private func downloadArt(
    of rows: [TopSongsViewModel.Row], into path: String, feed feedURL: URL,
    environment: AppEnvironment
  ) async throws {
    let folder = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw failure("cannot create \(path): \(error.localizedDescription)")
    }
    let art = rows.compactMap { row in
      row.song.largestImage.map { ArtFile(id: row.song.id, url: $0.url, folder: folder) }
    }
    // A download whose process was stopped before naming it is named now; images already
    // there are kept.
    for file in art { try name(file) }
    let missing = art.filter { !$0.exists }
    guard !missing.isEmpty else { return }
    let client = environment.ownDownloads(
      "art-downloads", DownloadConfiguration(outputDirectory: folder))
    let output = DownloadOutput(json: false, descriptor: Terminal.standardError)
    let status = await DownloadRunner(client: client, output: output).run(
      requests: missing.map {
        DownloadRequest(
          url: $0.url, destination: $0.download,
          headers: requestHeaders.headers(for: $0.url, trusting: feedURL))
      })
    for file in missing { try name(file) }
    if status != 0 { throw ExitCode.failure }
  }

  /// Names `file` by its content (`ArtFile.nameByContent`), saying so when it renames it.
  private func name(_ file: ArtFile) throws {
    do {
      guard let named = try file.nameByContent() else { return }
      Terminal.writeError(
        "fetcher: \(file.download.lastPathComponent) holds a "
          + "\(named.pathExtension.uppercased()) image: renamed \(named.lastPathComponent)\n")
    } catch {
      throw failure("\(error)")
    }
  }
}
