import ArgumentParser
import DownloadClient
import Foundation
import HTTPClient
import NetworkClient
import SongsService
import SongsServiceLive
import TopSongsFeature

/// `fetcher songs`: the top songs of an iTunes RSS feed, and optionally their cover art.
struct SongsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "songs",
    abstract: "List the top songs of an iTunes RSS feed.",
    discussion: """
      The default feed is server.py's. --art downloads each song's largest cover image with \
      the download manager (progress on standard error); files already there are kept.
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

  @OptionGroup var requestHeaders: RequestHeaderOptions

  func validate() throws {
    guard let url = URL(string: feed), ["http", "https"].contains(url.scheme?.lowercased()),
      url.host != nil
    else { throw ValidationError("--feed takes an http or https URL, not \(feed)") }
    if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
  }

  func run() async throws {
    let http = connection.httpClient()
    let model = TopSongsViewModel.live(
      service: .live(client: .live(http: http.adding(requestHeaders.fields))),
      feed: URL(string: feed)!, limit: limit)
    await model.load()
    let state = model.state()
    if let message = state.errorMessage { throw failure(message) }
    let report = SongsReport(rows: state.rows)
    FileHandle.standardOutput.write(Data((json ? report.json() : report.table()).utf8))
    if let art { try await downloadArt(of: state.rows, into: art, http: http) }
  }

  /// Downloads the largest image of each song into `path`, named after the song's id.
  private func downloadArt(
    of rows: [TopSongsViewModel.Row], into path: String, http: HTTPClient
  ) async throws {
    let folder = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw failure("cannot create \(path): \(error.localizedDescription)")
    }
    let requests = rows.compactMap { row -> DownloadRequest? in
      guard let image = row.song.largestImage else { return nil }
      let fileExtension = image.url.pathExtension.isEmpty ? "png" : image.url.pathExtension
      let destination = folder.appendingPathComponent(
        Self.fileName(row.song.id) + "." + fileExtension)
      guard !FileManager.default.fileExists(atPath: destination.path) else { return nil }
      return DownloadRequest(
        url: image.url, destination: destination, headers: requestHeaders.headers)
    }
    guard !requests.isEmpty else { return }
    let client = DownloadClient.live(
      configuration: DownloadConfiguration(outputDirectory: folder), http: http)
    let output = DownloadOutput(json: false, descriptor: Terminal.standardError)
    let succeeded = await DownloadRunner(client: client, output: output).run(
      requests: requests)
    if !succeeded { throw ExitCode.failure }
  }

  /// `id` with anything but letters, digits, `-` and `_` replaced by `_`: a plain file name.
  private static func fileName(_ id: String) -> String {
    String(id.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") ? $0 : "_" })
  }
}
