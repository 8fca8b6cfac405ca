import Foundation
import StoreLive

/// Where fetcher keeps its files; `FETCHER_HOME` overrides the state and the cache.
enum Directories {
  /// The current working folder.
  static var current: URL {
    URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
  }

  /// The state files: the counter, the last code, the download queue.
  static var state: URL {
    StateDirectory.resolve(application: "fetcher", overrideVariable: "FETCHER_HOME")
  }

  /// Logs downloaded for analysis, which can be fetched again.
  static var logCache: URL {
    StateDirectory.resolve(application: "fetcher", overrideVariable: "FETCHER_HOME", kind: .cache)
      .appendingPathComponent("logs", isDirectory: true)
  }
}
