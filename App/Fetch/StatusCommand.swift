import ArgumentParser

/// `fetcher status`: the stored values, without touching the network.
struct StatusCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "status",
    abstract: "Show the stored response code and fetch count.")

  @Flag(help: "Print a JSON object.")
  var json = false

  func run() async throws {
    let model = AppEnvironment.live().fetchViewModel
    await model.onAppear()
    let state = model.state()
    try exitOnError(state)
    try FetchOutput(json: json).print(state)
  }
}
