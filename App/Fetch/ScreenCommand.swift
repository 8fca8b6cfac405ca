import ArgumentParser

/// `fetcher screen`, also `fetcher` alone: the interactive single-screen fetcher.
struct ScreenCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "screen",
    abstract: "Open the interactive fetcher screen (what 'fetcher' alone does on a terminal).")

  @OptionGroup var server: ServerOptions

  func run() async throws {
    guard Terminal.isInteractive else {
      throw ValidationError(
        "the interactive screen needs a terminal; use 'fetcher fetch' or 'fetcher status'")
    }
    let model = AppEnvironment.live(server: server).fetchViewModel
    await InteractiveScreen(model: model).run()
  }
}
