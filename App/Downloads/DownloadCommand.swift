import ArgumentParser
import ChecksumTypes
import DownloadClient
import DownloadFeature
import Foundation
import HTTPClient
import Metalink
import StyleGuide

/// `fetcher download URL...`: download files, resumably.
struct DownloadCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "download",
    abstract: "Download files, with retries, resume and a persisted queue.",
    discussion: """
      Ctrl-C pauses and keeps the partial data; running the same command again resumes. \
      A file that is done is not fetched again while it is there; --force fetches it anew.

      \(DownloadExitCode.table)
      """)

  @Argument(help: "The http or https URLs to download.")
  var urls: [String] = []

  @Option(
    name: [.customShort("i"), .customLong("input-file")],
    help: ArgumentHelp(
      "Also download the URLs listed in FILE (- for standard input), in aria2c's format.",
      discussion:
        "A URL a line, with its mirrors after TABs; indented lines after it may set dir=, out= and checksum=TYPE=HEX.",
      valueName: "file"))
  var inputFile: String?

  @Option(
    name: [.customShort("M"), .customLong("metalink")],
    help: ArgumentHelp(
      "Also download the files of this Metalink (4 or 3; a file, - or an http(s) URL), with its mirrors, hashes and piece hashes.",
      valueName: "file|url"))
  var metalink: String?

  @Option(
    name: .customLong("metalink-location"),
    help: ArgumentHelp(
      "Prefer a Metalink's mirrors in these countries (ISO 3166 codes, as jp,us).",
      valueName: "codes"))
  var metalinkLocation: String?

  @Option(
    name: [.customShort("d"), .customLong("dir")],
    help: "The folder to write to (default: the working directory).")
  var dir: String?

  @Flag(
    help: ArgumentHelp(
      "Hand the downloads to the running daemon (fetcher daemon) and print their IDs at once.",
      discussion:
        "Without --dir or --out they go to the daemon's folder; with them, where they say, as without --background."
    ))
  var background = false

  @Option(
    name: [.customShort("o"), .customLong("out")],
    help: ArgumentHelp(
      "The file to write, in --dir; only with a single URL. An existing folder is taken as --dir.",
      valueName: "name"))
  var out: String?

  @Option(
    name: .customLong("mirror"),
    help: ArgumentHelp(
      "Another URL of the same file, used when the URL fails and, with --split, at once; repeat for more. Only with a single URL.",
      discussion:
        "Several URLs without --mirror are several files, as curl and wget take them (aria2c takes them as mirrors unless -Z).",
      valueName: "url"))
  var mirrors: [String] = []

  @Option(
    help: ArgumentHelp(
      "The digest the file must have, as aria2c takes it: TYPE=HEX, TYPE one of md5, sha-1, sha-224, sha-256, sha-384, sha-512; only with a single URL.",
      valueName: "type=hex"))
  var checksum: String?

  @Option(help: "The SHA-256 (hex) the file must have: --checksum sha-256=HEX.")
  var sha256: String?

  @Flag(
    name: .customLong("if-changed"),
    help: "Fetch a file that is done again only if the server says it changed (ETag or date).")
  var ifChanged = false

  @OptionGroup var transfer: TransferOptions

  @OptionGroup var connection: ConnectionOptions

  @OptionGroup var headerOptions: RequestHeaderOptions

  @OptionGroup(title: "Other tools' habits") var habits: HabitOptions

  /// The request headers, `--cookie`'s NAME=VALUE among them.
  private var requestHeaders: RequestHeaderOptions {
    headerOptions.adding(cookies: connection.cookieData)
  }

  func validate() throws {
    guard !urls.isEmpty || inputFile != nil || metalink != nil else {
      throw ValidationError("give at least one URL, --input-file or --metalink")
    }
    // Here, so that the usage shown is download's.
    for url in urls where URL(string: url)?.scheme == nil {
      throw ValidationError(
        "not a URL: \(url.printable)" + (url == "-" ? " (-i - reads URLs from standard input)" : "")
      )
    }
    let single = urls.count == 1 && inputFile == nil && metalink == nil
    if let sha256 {
      guard single else { throw ValidationError("--sha256 goes with a single URL") }
      guard FileChecksum(.sha256, hex: sha256) != nil else {
        throw ValidationError("--sha256 takes 64 hex digits")
      }
    }
    if let checksum {
      guard single else { throw ValidationError("--checksum goes with a single URL") }
      guard sha256 == nil else { throw ValidationError("choose one of --checksum and --sha256") }
      guard FileChecksum(checksum) != nil else {
        throw ValidationError(
          "--checksum takes TYPE=HEX, TYPE one of \(FileChecksum.typeNames), with its number "
            + "of hex digits")
      }
    }
    if !mirrors.isEmpty, !single {
      throw ValidationError("--mirror goes with a single URL (in -i, mirrors follow a TAB)")
    }
    for mirror in mirrors
    where !(URL(string: mirror)?.isHTTP ?? false) {
      throw ValidationError("--mirror takes an http or https URL, not \(mirror.printable)")
    }
    if out != nil, outFolder == nil, !single {
      throw ValidationError("--out names one file: give a single URL, or use --dir for a folder")
    }
    if background, let option = notCarried.first(where: \.given)?.option {
      throw ValidationError(
        "\(option) is not handed to the daemon: its own settings hold (fetcher daemon --help)")
    }
  }

  /// The options a daemon does not take from `--background`, and whether each was given.
  private var notCarried: [(option: String, given: Bool)] {
    [
      ("--max-size", transfer.maxSize != nil), ("--max-time", transfer.maxTime != nil),
      ("--speed-limit", transfer.speedLimit != nil), ("--speed-time", transfer.speedTime != nil),
      ("--if-changed", ifChanged), ("--compressed", transfer.compressed),
      ("--remote-time", transfer.remoteTime), ("--force", transfer.force),
      ("--auto-file-renaming", transfer.autoFileRenaming),
      ("--on-download-complete", transfer.onDownloadComplete != nil),
      ("--on-download-error", transfer.onDownloadError != nil),
      ("--proxy", connection.proxy != nil), ("--cacert", connection.cacert != nil),
      ("--insecure", connection.insecure), ("--netrc", connection.netrc),
      ("--netrc-file", connection.netrcFile != nil), ("--cookie-jar", connection.cookieJar != nil),
      ("--json", transfer.json), ("--split", transfer.split != nil),
      ("--max-connection-per-server", transfer.maxConnectionPerServer != nil),
      ("--concurrency", transfer.concurrency != 4), ("--timeout", transfer.timeout != 60),
      ("--retries", transfer.retries != 3),
    ]
  }

  /// The folder of `--dir`, the working directory without it.
  private var folderPath: String { dir ?? "." }

  /// `--out` when it names an existing folder (the way `-o DIR` worked before `--dir`).
  private var outFolder: URL? {
    guard let out else { return nil }
    var isFolder: ObjCBool = false
    let url = DownloadPlan.path(out, in: URL(fileURLWithPath: folderPath, isDirectory: true))
    let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
    return exists && isFolder.boolValue ? url : nil
  }

  func run() async throws {
    let base =
      outFolder ?? URL(fileURLWithPath: folderPath, isDirectory: true).standardizedFileURL
    let expected =
      checksum.flatMap { FileChecksum($0) }
      ?? sha256.flatMap { FileChecksum(.sha256, hex: $0) }
    let plan = DownloadPlan(
      folder: base, workingDirectory: Directories.current, headers: requestHeaders.headers)
    var requests: [DownloadRequest]
    do {
      requests = try urls.map { url in
        try plan.request(
          url, mirrors: mirrors, out: outFolder == nil ? out : nil, checksum: expected)
      }
      if let inputFile { requests += try plan.requests(try readInputFile(inputFile)) }
    } catch let refusal as DownloadPlan.Refusal {
      throw ValidationError(refusal.description)
    }
    let http = connection.httpClient()
    if let metalink {
      let document = try await readMetalink(metalink, http: http)
      do {
        // A Metalink's URLs are hosts its content names: the secrets go only to those of the
        // origin the user named for it (none for a file).
        requests += try plan.requests(
          document,
          preferring: metalinkLocation?.split(separator: ",").map(String.init) ?? [],
          origin: URL(string: metalink).flatMap { $0.isHTTP ? $0 : nil })
      } catch {
        throw failure("\(metalink): \(error)")
      }
    }
    for index in requests.indices { requests[index].limits = transfer.limits }
    if background { return try await handToDaemon(requests, http: http, folder: base) }
    let output = transfer.output
    let client = AppEnvironment.live(http: http).downloads(
      transfer.configuration(outputDirectory: base, output: output, ifChanged: ifChanged))
    let status = await DownloadRunner(client: client, output: output, hooks: transfer.hooks)
      .run(requests: requests)
    if status != 0 { throw ExitCode(status) }
  }

  /// Starts `requests` in the running daemon and prints their IDs, a line each; those without
  /// a file or folder of their own go to the daemon's folder unless `--dir` named `folder`.
  private func handToDaemon(_ requests: [DownloadRequest], http: HTTPClient, folder: URL)
    async throws
  {
    guard let daemon = AppEnvironment.live(http: http).daemon else {
      throw failure("no daemon runs (fetcher daemon --detach starts one)")
    }
    var status: Int32 = 0
    for var request in requests {
      if dir != nil, request.destination == nil { request.folder = request.folder ?? folder }
      let download: Download
      do {
        download = try await daemon.start(request)
      } catch {
        Terminal.writeError("fetcher: \(request.redacted.url.absoluteString): \(error)\n")
        status = (error as? DownloadError).map(DownloadExitCode.of) ?? 1
        continue
      }
      try Terminal.write("\(download.id)\n")
    }
    if status != 0 { throw ExitCode(status) }
  }

  /// The Metalink at `location`: a file, - for standard input, or an http or https URL.
  private func readMetalink(_ location: String, http: HTTPClient) async throws -> Metalink {
    if let url = URL(string: location), url.isHTTP {
      var request = HTTPRequest(url: url, headers: requestHeaders.fields)
      request.headers["User-Agent"] = transfer.userAgent
      do {
        return try await Metalink.fetched(request, http: http)
      } catch {
        throw failure("\(location): \(error)")
      }
    }
    let (data, name) = try contents(of: location)
    do {
      return try Metalink(data)
    } catch {
      throw failure("\(name): \(error)")
    }
  }

  /// The bytes of the file at `path`, or of standard input for `-`, and what to call it.
  private func contents(of path: String) throws -> (data: Data, name: String) {
    let name = path == "-" ? "standard input" : path
    do {
      let data =
        path == "-"
        ? FileHandle.standardInput.readDataToEndOfFile()
        : try Data(contentsOf: URL(fileURLWithPath: path))
      return (data, name)
    } catch {
      throw failure("\(name): cannot read it (\((error as NSError).localizedDescription))")
    }
  }

  /// The entries of the input file at `path` (- for standard input).
  private func readInputFile(_ path: String) throws -> [InputFile.Entry] {
    let (data, name) = try contents(of: path)
    do {
      return try InputFile(String(decoding: data, as: UTF8.self)).entries
    } catch {
      throw failure("\(name): \(error)")
    }
  }
}
