import Foundation
import StyleGuide

/// A first argument that is neither an option nor a command (`fetcher analyse FILE`) is an
/// unknown command, named as such with the closest one, as git does, instead of being parsed
/// as the default command's unexpected arguments.
enum UnknownCommand {
  /// The message for `arguments` (without the program's name), when the first is an unknown
  /// command among `commands`.
  static func message(for arguments: [String], commands: [String]) -> String? {
    guard let first = arguments.first, !first.hasPrefix("-"), !commands.contains(first)
    else { return nil }
    var message = "Error: '\(first.printable)' is not a fetcher command"
    let distances = commands.map { ($0, editDistance(first.lowercased(), $0)) }
    if let (closest, distance) = distances.min(by: { $0.1 < $1.1 }),
      distance <= max(1, closest.count / 3)
    {
      message += "; did you mean '\(closest)'?"
    }
    return message + "\nSee 'fetcher --help'."
  }

  /// The Levenshtein distance between `a` and `b`.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let (a, b) = (Array(a), Array(b))
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      for (j, y) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}
