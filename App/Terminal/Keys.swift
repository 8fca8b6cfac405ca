import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a key press asks the screen to do.
enum KeyCommand {
  case fetch
  case quit
}

enum Keys {
  /// The commands typed on standard input, read on a thread of their own. The stream ends
  /// at end of input.
  static func commands() -> AsyncStream<KeyCommand> {
    let (stream, continuation) = AsyncStream<KeyCommand>.makeStream()
    let reader = Thread {
      var byte: UInt8 = 0
      while read(Terminal.standardInput, &byte, 1) == 1 {
        switch byte {
        case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: " "):
          continuation.yield(.fetch)
        case UInt8(ascii: "q"), UInt8(ascii: "Q"):
          continuation.yield(.quit)
        default:
          continue
        }
      }
      continuation.finish()
    }
    reader.start()
    return stream
  }
}
