import ArgumentParser
import Foundation
import StoreLive

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's terminal: what is attached, and raw writes to standard error and output.
enum Terminal {
  static let standardInput: Int32 = 0
  static let standardOutput: Int32 = 1
  static let standardError: Int32 = 2

  static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

  /// Whether both standard input and standard output are a terminal.
  static var isInteractive: Bool { isTerminal(standardInput) && isTerminal(standardOutput) }

  /// Writes `text` to standard error. A refusal (standard error on a full disk) is let go:
  /// there is nowhere left to say it, and the exit status says the rest, as `cat`'s does.
  static func writeError(_ text: String) {
    _ = FileWrite.all(Data(text.utf8), to: standardError)
  }

  /// Draws `text` on the terminal on standard output (a screen, a live table). A terminal
  /// that refuses it has gone, and the input's end stops the drawing.
  static func draw(_ text: String) {
    _ = FileWrite.all(Data(text.utf8), to: standardOutput)
  }

  /// Writes `text` to standard output. When it is refused (a full disk, a closed
  /// descriptor), says why on standard error and throws exit status 1, as `cat` does.
  static func write(_ text: String) throws {
    var text = text
    try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
  }

  /// `write(_:)` of bytes where they lie.
  static func write(_ bytes: UnsafeRawBufferPointer) throws {
    guard FileWrite.all(bytes, to: standardOutput) else { throw failure(outputRefusal) }
  }

  /// Why standard output refused the last write, from `errno`, as the line says it.
  static var outputRefusal: String {
    "cannot write standard output: \(String(cString: strerror(errno)))"
  }
}

extension Terminal {
  /// The size of the terminal on `descriptor`; 80 by 24 when it has none.
  static func size(of descriptor: Int32) -> (columns: Int, lines: Int) {
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
      return (80, 24)
    }
    return (Int(size.ws_col), Int(size.ws_row))
  }
}
