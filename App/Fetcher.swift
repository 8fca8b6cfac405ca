import ArgumentParser
import Foundation

/// `fetcher`: the command-line product. With no subcommand it opens the single-screen
/// fetcher (`ScreenCommand`).
@main
struct Fetcher: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fetcher",
    abstract: "Fetch response codes, download files, analyse access logs and list top songs.",
    discussion: """
      fetch, status, reset: ask the test server (python3 server.py) for response codes and \
      keep count; with no subcommand on a terminal, an interactive screen does the same.

      download, downloads: a download manager with a persisted queue, retries and resume.

      analyze: the most common sequences of pages that clients of an access log visit.

      songs: the songs of an iTunes top-songs feed.

      State is kept in $FETCHER_HOME, else $XDG_STATE_HOME/fetcher, else \
      ~/.local/state/fetcher.
      """,
    version: "6.0.0",
    subcommands: [
      ScreenCommand.self, FetchCommand.self, StatusCommand.self, ResetCommand.self,
      DownloadCommand.self, DownloadsCommand.self, DaemonCommand.self, AnalyzeCommand.self,
      SongsCommand.self,
    ],
    // The screen's options (--root-url, --retries) belong to it alone, so that a
    // subcommand's own --retries is never taken for the screen's.
    defaultSubcommand: ScreenCommand.self
  )

  /// Parses the arguments and runs the command, as `AsyncParsableCommand` does, once the
  /// passwords in them are blanked where other users can read them (`ArgumentBlanking`).
  static func main() async {
    ArgumentBlanking.blankPasswords()
    let commands = configuration.subcommands.map { $0._commandName } + ["help"]
    if let message = UnknownCommand.message(
      for: Array(CommandLine.arguments.dropFirst()), commands: commands)
    {
      Terminal.writeError(message + "\n")
      Foundation.exit(64)  // a usage error, as the parser's own
    }
    await Self.main(nil)
  }
}
