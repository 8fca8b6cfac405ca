/// A busy indicator that appears only when work takes a while: quick work shows nothing, so
/// the screen does not flicker.
public enum Spinner {
  /// The frames shown in turn.
  public static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

  /// Runs `operation`. Once it has run for `delay` on `clock`, `show` is called with a frame
  /// and again every `interval`; when it ends, `hide` is called if any frame was shown. No
  /// frame is shown after `operation` returns.
  public static func run<C: Clock<Duration>, T, E: Error>(
    isolation: isolated (any Actor)? = #isolation,
    clock: C,
    delay: Duration = .seconds(1),
    interval: Duration = .milliseconds(100),
    show: @escaping @Sendable (String) -> Void,
    hide: @escaping @Sendable () -> Void,
    operation: () async throws(E) -> T
  ) async throws(E) -> T {
    let indicator = Task { () -> Bool in
      var shown = 0
      do {
        try await clock.sleep(for: delay)
        while !Task.isCancelled {
          show(frames[shown % frames.count])
          shown += 1
          try await clock.sleep(for: interval)
        }
      } catch {}
      return shown > 0
    }
    let result: Result<T, E>
    do {
      result = .success(try await operation())
    } catch {
      result = .failure(error)
    }
    indicator.cancel()
    if await indicator.value { hide() }
    return try result.get()
  }
}
