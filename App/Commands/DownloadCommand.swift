import ArgumentParser
import DownloadClient
import Foundation

/// `fetcher download URL...`: download files, resumably.
struct DownloadCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "download",
    abstract: "Download files, with retries, resume and a persisted queue.",
    discussion: """
      Ctrl-C pauses and keeps the partial data; running the same command again resumes.
      """)

  @Argument(help: "The http or https URLs to download.")
  var urls: [String]

  @Option(name: .shortAndLong, help: "The folder to write to.")
  var output = "."

  @Option(help: "The SHA-256 (hex) the file must have; only with a single URL.")
  var sha256: String?

  @OptionGroup var transfer: TransferOptions

  @OptionGroup var connection: ConnectionOptions

  @OptionGroup var requestHeaders: RequestHeaderOptions

  func validate() throws {
    guard !urls.isEmpty else { throw ValidationError("give at least one URL") }
    if let sha256 {
      guard urls.count == 1 else { throw ValidationError("--sha256 goes with a single URL") }
      guard sha256.count == 64, sha256.allSatisfy(\.isHexDigit) else {
        throw ValidationError("--sha256 takes 64 hex digits")
      }
    }
  }

  func run() async throws {
    let folder = URL(fileURLWithPath: output, isDirectory: true).standardizedFileURL
    let requests = try urls.map { text in
      guard let url = URL(string: text), url.scheme != nil else {
        throw ValidationError("not a URL: \(text)")
      }
      return DownloadRequest(url: url, expectedSHA256: sha256, headers: requestHeaders.headers)
    }
    let client = transfer.client(outputDirectory: folder, http: connection.httpClient())
    let succeeded = await DownloadRunner(
      client: client, output: DownloadOutput(json: transfer.json)
    ).run(requests: requests)
    if !succeeded { throw ExitCode.failure }
  }
}
