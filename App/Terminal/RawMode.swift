import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal settings to put back on exit. Written once by `RawMode.enter()` before the
/// signal handlers are in place, and only read after that (by `leave()` and the handlers),
/// so the unsynchronised access is safe.
nonisolated(unsafe) private var savedSettings = termios()

/// The handlers of Ctrl-C and SIGTERM, kept alive for the life of the process. Written once
/// by `RawMode.enter()`.
nonisolated(unsafe) private var signalSources: [any DispatchSourceSignal] = []

/// Puts the terminal in key-at-a-time mode on the alternate screen, and puts it back on
/// exit, Ctrl-C or SIGTERM.
enum RawMode {
  private static let enterScreen = "\u{1B}[?1049h\u{1B}[?25l"
  private static let leaveScreen = "\u{1B}[?25h\u{1B}[?1049l"

  /// Reads keys one at a time without echo, switches to the alternate screen and hides the
  /// cursor. Ctrl-C still interrupts: the terminal is restored and the process exits 130
  /// (143 on SIGTERM). The signals are handled on the main queue, where the main actor draws
  /// the screen, so no drawing can come after the restore. They are in place before the
  /// terminal changes.
  static func enter() async {
    tcgetattr(Terminal.standardInput, &savedSettings)
    for (number, status) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
      let source = await Signals.handle(number, on: .main) {
        leave()
        exit(status)
      }
      signalSources.append(source)
    }
    var raw = savedSettings
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
    withUnsafeMutableBytes(of: &raw.c_cc) { controls in
      controls[Int(VMIN)] = 1
      controls[Int(VTIME)] = 0
    }
    tcsetattr(Terminal.standardInput, TCSAFLUSH, &raw)
    writeOut(enterScreen)
  }

  /// Puts the terminal back as it was.
  static func leave() {
    writeOut(leaveScreen)
    tcsetattr(Terminal.standardInput, TCSAFLUSH, &savedSettings)
  }

  /// Writes `text` with write(2), which (unlike FileHandle) a signal handler may call.
  private static func writeOut(_ text: String) {
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes { write(Terminal.standardOutput, $0.baseAddress, $0.count) }
  }
}
