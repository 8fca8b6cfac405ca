import Foundation

/// Where an application keeps its state files.
public enum StateDirectory {
  /// The state folder of `application`: the folder named by the environment variable
  /// `overrideVariable` when it is set, else `$XDG_STATE_HOME/<application>`, else
  /// `~/.local/state/<application>`. Empty variables count as unset.
  public static func resolve(
    application: String,
    overrideVariable: String,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    func value(_ name: String) -> String? {
      environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }
    if let folder = value(overrideVariable) {
      return URL(fileURLWithPath: folder, isDirectory: true)
    }
    if let stateHome = value("XDG_STATE_HOME") {
      return URL(fileURLWithPath: stateHome, isDirectory: true)
        .appendingPathComponent(application, isDirectory: true)
    }
    let home = value("HOME") ?? NSHomeDirectory()
    return URL(fileURLWithPath: home, isDirectory: true)
      .appendingPathComponent(".local/state", isDirectory: true)
      .appendingPathComponent(application, isDirectory: true)
  }
}
