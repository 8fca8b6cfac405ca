#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal settings to put back on exit. Written once by `RawMode.enter()` before the
/// signal handlers are installed, and only read after that (by `leave()` and the handlers),
/// so the unsynchronised access is safe.
nonisolated(unsafe) private var savedSettings = termios()

/// Puts the terminal in key-at-a-time mode on the alternate screen, and puts it back on
/// exit, Ctrl-C or SIGTERM.
enum RawMode {
  private static let enterScreen = "\u{1B}[?1049h\u{1B}[?25l"
  private static let leaveScreen = "\u{1B}[?25h\u{1B}[?1049l"

  /// Reads keys one at a time without echo, switches to the alternate screen and hides the
  /// cursor. Ctrl-C still interrupts: the handler restores the terminal and exits 130.
  static func enter() {
    tcgetattr(Terminal.standardInput, &savedSettings)
    var raw = savedSettings
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
    withUnsafeMutableBytes(of: &raw.c_cc) { controls in
      controls[Int(VMIN)] = 1
      controls[Int(VTIME)] = 0
    }
    tcsetattr(Terminal.standardInput, TCSAFLUSH, &raw)
    signal(SIGINT) { _ in RawMode.restoreAndExit(130) }
    signal(SIGTERM) { _ in RawMode.restoreAndExit(143) }
    write(enterScreen)
  }

  /// Puts the terminal back as it was.
  static func leave() {
    write(leaveScreen)
    tcsetattr(Terminal.standardInput, TCSAFLUSH, &savedSettings)
  }

  /// Called from a signal handler: only async-signal-safe calls.
  private static func restoreAndExit(_ status: Int32) {
    tcsetattr(Terminal.standardInput, TCSANOW, &savedSettings)
    write(leaveScreen)
    _exit(status)
  }

  private static func write(_ text: String) {
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes {
      Glibc.write(Terminal.standardOutput, $0.baseAddress, $0.count)
    }
  }
}
