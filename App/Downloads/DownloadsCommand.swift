import ArgumentParser
import DownloadClient
import DownloadFeature
import Foundation

/// `fetcher downloads`: the persisted download queue.
struct DownloadsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "downloads",
    abstract: "List, pause, resume, cancel or clear the persisted downloads.",
    discussion: "While a daemon runs (fetcher daemon), they go through it.",
    subcommands: [List.self, Pause.self, Resume.self, Cancel.self, Clear.self, Watch.self],
    defaultSubcommand: List.self)

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the downloads.")

    @Flag(help: "Print one JSON object per download.")
    var json = false

    func run() async throws {
      let downloads = try await failingWithReason {
        try await AppEnvironment.live().queue.list()
      }
      if json {
        let output = DownloadOutput(json: true)
        for download in downloads { output.describe(download) }
        return
      }
      guard !downloads.isEmpty else { return Terminal.writeError("fetcher: no downloads\n") }
      // On a terminal, a header and lines cut to its width; through a pipe, the lines whole.
      let terminal = Terminal.isTerminal(Terminal.standardOutput)
      let lines = DownloadTable.lines(
        downloads, header: terminal,
        width: terminal ? Terminal.size(of: Terminal.standardOutput).columns : nil)
      try Terminal.write(lines.map { $0 + "\n" }.joined())
    }
  }

  struct Pause: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Pause a download under way or waiting, or all of them, keeping their bytes.",
      discussion: "downloads resume goes on from them.")

    @OptionGroup var selection: DownloadSelection

    func run() async throws {
      let client = AppEnvironment.live().queue
      let said = try await failingWithReason {
        let active = try await client.list().filter { download in
          download.status.isActive && selection.includes(download.id)
        }
        if let id = selection.id, active.isEmpty {
          throw failure("no download under way or waiting \(id)")
        }
        try await client.pause(active.map(\.id))
        if selection.id != nil, let download = active.first {
          return "paused \(download.id) (\(DownloadRow(download: download).name.printable))"
        }
        return "paused \(active.count) \(active.count == 1 ? "download" : "downloads")"
      }
      Terminal.writeError("fetcher: \(said)\n")
    }
  }

  struct Resume: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Resume a paused, failed or interrupted download, or all of them.")

    @OptionGroup var selection: DownloadSelection

    @OptionGroup var transfer: TransferOptions

    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
      if connection.cookieData != nil {
        throw ValidationError(
          "--cookie NAME=VALUE is a secret, never kept with a download: give it to the "
            + "download command that names the URL")
      }
    }

    func run() async throws {
      let output = transfer.output
      let environment = AppEnvironment.live(http: connection.httpClient())
      // The daemon resumes them when one runs; this process shows them.
      let daemon = environment.daemon
      let client =
        daemon
        ?? environment.downloads(
          transfer.configuration(outputDirectory: Directories.current, output: output))
      var runner = DownloadRunner(client: client, output: output, hooks: transfer.hooks)
      runner.pausesOnInterrupt = daemon == nil
      let status = await runner.run { client in
        do {
          let downloads = try await client.list().filter { download in
            download.status != .completed && selection.includes(download.id)
          }
          if let id = selection.id, downloads.isEmpty {
            runner.output.failure("no unfinished download \(id)")
          }
          for download in downloads { try await client.resume(download.id) }
          // As they were when resumed, queued: the states after come as events, in order.
          return downloads.map { download in
            var resumed = download
            resumed.status = .queued
            return resumed
          }
        } catch {
          // A download another process writes is 11, as for download.
          runner.output.failure(
            "\(error)", status: (error as? DownloadError).map(DownloadExitCode.of) ?? 1)
          return []
        }
      }
      if status != 0 { throw ExitCode(status) }
    }
  }

  struct Cancel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Cancel a download and delete its partial data, or all that are unfinished.",
      discussion: """
        --all cancels the queued, running and paused downloads; the done and failed stay \
        listed (downloads clear forgets them).
        """)

    @OptionGroup var selection: DownloadSelection

    func run() async throws {
      let client = AppEnvironment.live().queue
      let said = try await failingWithReason {
        if let id = selection.id {
          let name = try await client.list().first { $0.id.rawValue == id }.map {
            DownloadRow(download: $0).name.printable
          }
          try await client.cancel(DownloadID(id))
          return "cancelled \(id)" + (name.map { " (\($0))" } ?? "")
        }
        let downloads = try await client.list()
        let unfinished = downloads.filter { !$0.status.hasEnded }
        for download in unfinished { try await client.cancel(download.id) }
        let count = unfinished.count
        let kept = downloads.count - count
        return "cancelled \(count) \(count == 1 ? "download" : "downloads")"
          + (kept == 0
            ? ""
            : "; \(kept) done or failed kept (fetcher downloads clear forgets them)")
      }
      Terminal.writeError("fetcher: \(said)\n")
    }
  }
}

extension DownloadsCommand {
  struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show the daemon's downloads as they go, until none is under way.",
      discussion: """
        Downloads added or resumed while it watches are shown too. Ctrl-C leaves them to the \
        daemon.
        """)

    @Flag(help: "Print one JSON object per event.")
    var json = false

    func run() async throws {
      guard let daemon = AppEnvironment.live().daemon else {
        throw failure("no daemon runs (fetcher daemon --detach starts one)")
      }
      var runner = DownloadRunner(client: daemon, output: DownloadOutput(json: json, quiet: false))
      runner.pausesOnInterrupt = false
      runner.followsOthers = true
      let status = await runner.run { client in
        do {
          return try await client.list().filter(\.status.isActive)
        } catch {
          runner.output.failure("\(error)")
          return []
        }
      }
      if status != 0 { throw ExitCode(status) }
    }
  }

  struct Clear: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Forget the downloads that are done or failed (a failed one's partial data too).",
      discussion: "Files that are done stay where they are.")

    func run() async throws {
      let client = AppEnvironment.live().queue
      let cleared = try await failingWithReason {
        let ended = try await client.list().filter(\.status.hasEnded)
        for download in ended { try await client.cancel(download.id) }
        return ended.count
      }
      Terminal.writeError(
        "fetcher: \(cleared) \(cleared == 1 ? "download" : "downloads") cleared\n")
    }
  }
}

/// One download by its ID, or all of them.
struct DownloadSelection: ParsableArguments {
  @Argument(help: "The download's ID, as listed.")
  var id: String?

  @Flag(help: "Every download instead of one.")
  var all = false

  func validate() throws {
    guard (id != nil) != all else { throw ValidationError("give an ID or --all") }
  }

  func includes(_ download: DownloadID) -> Bool {
    all || download.rawValue == id
  }
}
