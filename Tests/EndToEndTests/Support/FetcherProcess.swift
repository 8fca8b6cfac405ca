import Foundation

/// One run of the built `fetcher` with its own state folder, as a user would run it.
struct FetcherRun: Sendable {
  let status: Int32
  let standardOutput: String
  let standardError: String

  /// The lines written to standard output.
  var outputLines: [String] { standardOutput.split(separator: "\n").map(String.init) }
}

/// Runs `fetcher` with a state folder of its own, and no terminal attached.
struct FetcherProcess {
  /// The folder that is `FETCHER_HOME` for every run, kept while the runs are: one let go
  /// before a run ends would be removed, then made again by the run, and left behind.
  let state: StateFolder
  var home: URL { state.url }
  /// The words that run it, before the executable (empty: it runs itself).
  var prefix: [String] = []
  /// The working directory of every run (nil: the test's).
  var directory: URL?

  /// The same runs inside `namespace`.
  func inside(_ namespace: NetworkNamespace) -> FetcherProcess {
    var inside = self
    inside.prefix = namespace.prefix
    return inside
  }

  /// The same runs with `directory` as their working directory.
  func working(in directory: URL) -> FetcherProcess {
    var working = self
    working.directory = directory
    return working
  }

  /// Starts `fetcher arguments…`, with `extraEnvironment` added to the environment, and
  /// returns without waiting.
  func start(_ arguments: [String], extraEnvironment: [String: String] = [:]) throws
    -> RunningFetcher
  {
    let process = Process()
    if prefix.isEmpty {
      process.executableURL = Paths.fetcher
      process.arguments = arguments
    } else {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = prefix + [Paths.fetcher.path] + arguments
    }
    var environment = ProcessInfo.processInfo.environment
    environment["FETCHER_HOME"] = home.path
    environment["NO_COLOR"] = "1"
    environment.merge(extraEnvironment) { _, extra in extra }
    process.environment = environment
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    process.currentDirectoryURL = directory
    try process.run()
    return RunningFetcher(state: state, process: process, output: output, error: error)
  }

  /// Runs `fetcher arguments…` to its end.
  func run(_ arguments: String...) async throws -> FetcherRun {
    try await run(arguments)
  }

  /// Runs `fetcher` with `arguments` to its end.
  func run(_ arguments: [String]) async throws -> FetcherRun {
    try await start(arguments).wait()
  }

  /// Runs `fetcher arguments…` to its end with `environment` added to its environment.
  func run(environment: [String: String], _ arguments: String...) async throws -> FetcherRun {
    try await start(arguments, extraEnvironment: environment).wait()
  }
}

/// A `fetcher` process that was started and not yet waited for.
struct RunningFetcher: Sendable {
  /// Its `FETCHER_HOME`, kept while it runs.
  let state: StateFolder
  let process: Process
  let output: Pipe
  let error: Pipe

  /// Reads standard output until it contains `text`, and returns what was read. What was
  /// read this way is not part of `wait()`'s result.
  func readOutput(until text: String) async -> String {
    await read(output, until: text)
  }

  /// Reads standard error until it contains `text`, as `readOutput(until:)` does.
  func readError(until text: String) async -> String {
    await read(error, until: text)
  }

  private func read(_ pipe: Pipe, until text: String) async -> String {
    await onOwnThread {
      var read = Data()
      while !String(decoding: read, as: UTF8.self).contains(text) {
        let chunk = pipe.fileHandleForReading.availableData
        // No data is the end only when the process ended: a read that a signal interrupted
        // (another test's child exiting) also gives none.
        if chunk.isEmpty && !process.isRunning { break }
        read.append(chunk)
      }
      return String(decoding: read, as: UTF8.self)
    }
  }

  /// Stops the process at once, as a crash would.
  func kill() async {
    Foundation.kill(process.processIdentifier, SIGKILL)
    await onOwnThread { process.waitUntilExit() }
  }

  /// Waits for the end of the process and collects what it wrote. A test cancelled meanwhile
  /// (past its time limit) kills the process instead of waiting for ever.
  func wait() async -> FetcherRun {
    await withTaskCancellationHandler {
      await collect()
    } onCancel: {
      Foundation.kill(process.processIdentifier, SIGKILL)
    }
  }

  private func collect() async -> FetcherRun {
    await onOwnThread {
      let standardOutput = output.fileHandleForReading.readDataToEndOfFile()
      let standardError = error.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return FetcherRun(
        status: process.terminationStatus,
        standardOutput: String(decoding: standardOutput, as: UTF8.self),
        standardError: String(decoding: standardError, as: UTF8.self))
    }
  }
}

/// A fresh state folder, removed when released.
final class StateFolder: Sendable {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("fetcher-e2e-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  var fetcher: FetcherProcess { FetcherProcess(state: self) }
}

/// Runs blocking `work` on a thread of its own, so that waiting for a process never holds one
/// of the few threads that run the tests.
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: work()) }.start()
  }
}
