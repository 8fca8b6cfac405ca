import Foundation

/// The password of `-u USER:PASSWORD` (and `--user`) blanked in the process's own argument
/// memory, as curl blanks it, so that `ps` and `/proc/PID/cmdline` show `USER:` and blank
/// space, no character of it (a `*` each would tell its length at a glance), while the command
/// still reads it (`CommandLine.arguments` is copied first); and the daemon's `--rpc-secret`
/// whole. Until this runs, at start-up, they show, as curl's does.
enum ArgumentBlanking {
  static func blankPasswords() {
    let arguments = CommandLine.arguments  // the copy the parser reads, made before blanking
    var follows = false
    var secretFollows = false
    for (index, argument) in arguments.enumerated() {
      defer {
        follows = argument == "-u" || argument == "--user"
        secretFollows = argument == "--rpc-secret"
      }
      if secretFollows || argument.hasPrefix("--rpc-secret=") {
        let start = secretFollows ? 0 : "--rpc-secret=".utf8.count
        blank(CommandLine.unsafeArgv[index], from: start)
        continue
      }
      let value: Substring
      if follows {
        value = Substring(argument)
      } else if argument.hasPrefix("--user=") {
        value = argument.dropFirst("--user=".count)
      } else if argument.hasPrefix("-u"), argument.count > 2, !argument.hasPrefix("--") {
        value = argument.dropFirst(2)
      } else {
        continue
      }
      guard let colon = value.firstIndex(of: ":") else { continue }
      let start = argument.utf8.count - value[value.index(after: colon)...].utf8.count
      blank(CommandLine.unsafeArgv[index], from: start)
    }
  }

  /// Writes zeros over the bytes of the C string `argument` from byte `start` on.
  private static func blank(_ argument: UnsafeMutablePointer<CChar>?, from start: Int) {
    guard let argument else { return }
    let end = start + strlen(argument + start)
    for offset in start..<end { argument[offset] = 0 }
  }
}
