import ArgumentParser

/// `fetcher reset`: forget the stored values.
struct ResetCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reset",
    abstract: "Clear the stored response code and fetch count.")

  func run() async throws {
    let model = AppEnvironment.live().fetchViewModel
    try await failingWithReason {
      try await model.reset()
    }
    try Terminal.write("Cleared the stored response code and fetch count.\n")
  }
}
