import ArgumentParser

/// `fetcher`: the command-line product. With no subcommand it opens the single-screen
/// fetcher (`ScreenCommand`).
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
      ScreenCommand.self, FetchCommand.self, StatusCommand.self, ResetCommand.self,
      DownloadCommand.self, DownloadsCommand.self, AnalyzeCommand.self, SongsCommand.self,
    ],
    // The screen's options (--root-url, --retries) belong to it alone, so that a
    // subcommand's own --retries is never taken for the screen's.
    defaultSubcommand: ScreenCommand.self
  )
}
