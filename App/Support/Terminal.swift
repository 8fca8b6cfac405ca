import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's terminal: what is attached, and raw writes to standard error.
enum Terminal {
  static let standardInput: Int32 = 0
  static let standardOutput: Int32 = 1
  static let standardError: Int32 = 2

  static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

  /// Whether both standard input and standard output are a terminal.
  static var isInteractive: Bool { isTerminal(standardInput) && isTerminal(standardOutput) }

  static func writeError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}
