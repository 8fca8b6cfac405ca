import ArgumentParser

/// `fetcher`: the command-line product. With no subcommand on a terminal it opens the
/// single-screen fetcher.
@main
struct Fetcher: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fetcher",
    abstract: "Fetch response codes from the test server and keep count.",
    discussion: """
      Start the server first: python3 server.py
      With no subcommand on a terminal, fetcher opens an interactive screen.
      State is kept in $FETCHER_HOME, else $XDG_STATE_HOME/fetcher, else ~/.local/state/fetcher.
      """,
    subcommands: [
      FetchCommand.self, StatusCommand.self, ResetCommand.self, DownloadCommand.self,
      DownloadsCommand.self, AnalyzeCommand.self, SongsCommand.self,
    ]
  )

  @OptionGroup var server: ServerOptions

  func run() async throws {
    guard Terminal.isInteractive else {
      throw ValidationError(
        "the interactive screen needs a terminal; use 'fetcher fetch' or 'fetcher status'")
    }
    let model = Dependencies.live(server: server).viewModel
    await InteractiveScreen(model: model).run()
  }
}
