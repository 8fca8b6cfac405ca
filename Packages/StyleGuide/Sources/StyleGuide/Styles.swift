import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Text styles for one output stream. When disabled every style returns the text unchanged,
/// so output to a pipe or a file stays plain.
public struct Styles: Sendable {
  /// Whether styles emit ANSI escape codes.
  public let isEnabled: Bool

  public init(isEnabled: Bool) {
    self.isEnabled = isEnabled
  }

  /// Styles for the stream `fileDescriptor`: enabled only on a terminal, and never when
  /// `NO_COLOR` is set to anything (https://no-color.org) or `TERM` is `dumb`.
  public static func forStream(
    _ fileDescriptor: Int32,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Styles {
    Styles(isEnabled: wanted(onTerminal: isatty(fileDescriptor) == 1, environment: environment))
  }

  static func wanted(onTerminal: Bool, environment: [String: String]) -> Bool {
    onTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
  }

  public func bold(_ text: String) -> String { apply("1", text) }
  public func dim(_ text: String) -> String { apply("2", text) }
  public func red(_ text: String) -> String { apply("31", text) }
  public func green(_ text: String) -> String { apply("32", text) }
  /// Foreground and background swapped, as for a focused button.
  public func inverse(_ text: String) -> String { apply("7", text) }

  private func apply(_ code: String, _ text: String) -> String {
    isEnabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}
