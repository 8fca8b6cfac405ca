import ArgumentParser
import DataFetchFeature
import Foundation
import Reachability
import StyleGuide

/// `fetcher fetch`: fetch response codes, persist them, and print the screen.
struct FetchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fetch",
    abstract: "Fetch a new response code, save it and count the fetch.")

  @OptionGroup var server: ServerOptions

  @OptionGroup var connection: ConnectionOptions

  @OptionGroup var headerOptions: RequestHeaderOptions

  /// The request headers, `--cookie`'s NAME=VALUE among them.
  private var requestHeaders: RequestHeaderOptions {
    headerOptions.adding(cookies: connection.cookieData)
  }

  @OptionGroup var exchangeTime: ExchangeTimeOptions

  @Option(parsing: .unconditional, help: "How many fetches to make, one after another.")
  var times = 1

  @Flag(help: "Print one JSON object per fetch.")
  var json = false

  @Flag(help: "Before each fetch, wait for the server to be reachable instead of failing.")
  var wait = false

  @Option(
    help: "With --wait, the longest wait for the server before a fetch, in seconds (default: 60).")
  var timeout: Int?

  func validate() throws {
    guard times >= 1 else { throw ValidationError("--times must be at least 1") }
    if let timeout {
      guard wait else { throw ValidationError("--timeout goes with --wait") }
      guard timeout >= 1 else { throw ValidationError("--timeout must be at least 1 second") }
    }
  }

  func run() async throws {
    let environment = AppEnvironment.live(
      server: server, http: connection.httpClient(), headers: requestHeaders.fields,
      maxTime: exchangeTime.maxTime.duration)
    let model = environment.fetchViewModel
    await model.onAppear()
    try exitOnError(model.state())
    let output = FetchOutput(json: json)
    for _ in 0..<times {
      if wait { try await waitForServer(environment) }
      await withSpinner { await model.fetchContent() }
      let state = model.state()
      try exitOnError(state)
      try output.print(state)
    }
  }

  /// Returns once the server accepts connections, saying on standard error that it waits;
  /// fails after `--timeout` seconds (60 by default).
  private func waitForServer(_ environment: AppEnvironment) async throws {
    // An invalid root URL is the fetch's to report.
    guard let host = environment.server else { return }
    let reachability = environment.reachability
    guard await reachability.status(host) != .reachable else { return }
    let seconds = timeout ?? 60
    Terminal.writeError("fetcher: waiting for \(server.rootURL) (up to \(seconds) s)\n")
    let clock = ContinuousClock()
    guard
      await reachability.waitUntilReachable(
        host, until: clock.now.advanced(by: .seconds(seconds)), clock: clock)
    else { throw failure("\(server.rootURL) did not answer within \(seconds) s") }
  }

  /// Runs `work`, with a spinner on standard error when it is a terminal and the work is slow.
  private func withSpinner(_ work: () async -> Void) async {
    guard Terminal.isTerminal(Terminal.standardError) else { return await work() }
    await Spinner.run(
      clock: ContinuousClock(),
      show: { frame in Terminal.writeError("\r\(frame) Fetching…") },
      hide: { Terminal.writeError("\r\u{1B}[K") },
      operation: work)
  }
}
