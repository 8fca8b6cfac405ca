import Foundation

/// Where an application keeps its state files, or its cache.
public enum StateDirectory {
  /// What the folder holds.
  public enum Kind: Sendable {
    /// Files that must not be lost: `$XDG_STATE_HOME`, else `~/.local/state`.
    case state
    /// Files that can be fetched again: `$XDG_CACHE_HOME`, else `~/.cache`.
    case cache
  }

  /// The folder of `application` for `kind`: the folder named by the environment variable
  /// `overrideVariable` when it is set (its `cache` subfolder for the cache), else
  /// `$XDG_STATE_HOME/<application>` or `$XDG_CACHE_HOME/<application>`, else
  /// `~/.local/state/<application>` or `~/.cache/<application>`. Empty variables count as
  /// unset.
  public static func resolve(
    application: String,
    overrideVariable: String,
    kind: Kind = .state,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    func value(_ name: String) -> String? {
      environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }
    if let folder = value(overrideVariable) {
      let url = URL(fileURLWithPath: folder, isDirectory: true)
      return kind == .cache ? url.appendingPathComponent("cache", isDirectory: true) : url
    }
    let (variable, fallback) =
      kind == .state ? ("XDG_STATE_HOME", ".local/state") : ("XDG_CACHE_HOME", ".cache")
    if let base = value(variable) {
      return URL(fileURLWithPath: base, isDirectory: true)
        .appendingPathComponent(application, isDirectory: true)
    }
    let home = value("HOME") ?? NSHomeDirectory()
    return URL(fileURLWithPath: home, isDirectory: true)
      .appendingPathComponent(fallback, isDirectory: true)
      .appendingPathComponent(application, isDirectory: true)
  }
}
