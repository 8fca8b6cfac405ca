import ArgumentParser
import DataFetchFeature
import StyleGuide

/// `fetcher fetch`: fetch response codes, persist them, and print the screen.
struct FetchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fetch",
    abstract: "Fetch a new response code, save it and count the fetch.")

  @OptionGroup var server: ServerOptions

  @Option(help: "How many fetches to make, one after another.")
  var times = 1

  @Flag(help: "Print one JSON object per fetch.")
  var json = false

  func validate() throws {
    guard times >= 1 else { throw ValidationError("--times must be at least 1") }
  }

  func run() async throws {
    let model = Dependencies.live(server: server).viewModel
    await model.onAppear()
    try exitOnError(model.state())
    let output = Output(json: json)
    for _ in 0..<times {
      await withSpinner { await model.fetchContent() }
      let state = model.state()
      try exitOnError(state)
      output.print(state)
    }
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
