import Foundation

/// Follows a log as it grows (`analyze --follow`), as `tail -F` does: reads what is new every
/// `interval` on its clock, after a rotation the rest of the old file first (see
/// `LogState.readNew`), and hands the result of every line so far to `refresh` after each
/// read. A log that is gone once followed (between logrotate's rename and the server's new
/// file) is waited for, saying so once, and followed again when it is back. Memory grows with
/// clients and sequences, not with the lines read.
public struct LogFollower<C: Clock<Duration>>: Sendable {
  public let path: String
  public let options: AnalysisOptions
  public let format: LogFormat?
  public let interval: Duration
  public let clock: C

  public init(
    path: String, options: AnalysisOptions, format: LogFormat?, every interval: Duration,
    clock: C
  ) {
    self.path = path
    self.options = options
    self.format = format
    self.interval = interval
    self.clock = clock
  }

  /// Reads and refreshes until the task is cancelled, from `state` when given (a watch that
  /// goes on after a restart), and returns the state at the end: the result of every line
  /// read, and where the reading stopped. `refresh` gets the result and the read that made it
  /// (its bytes, and what could not be read: a rotated file that is gone).
  public func run(
    from state: LogState? = nil, refresh: (Partial, LogState.Reading) throws -> Void
  ) async throws(LogInputError) -> LogState {
    var partial = state?.partial ?? Partial(options: options)
    var position = state?.position
    var gone = false
    repeat {
      var reading: LogState.Reading
      if let last = position, !FileManager.default.fileExists(atPath: path) {
        let note = "\(path) is gone (rotated?): waiting for it to appear again"
        reading = LogState.Reading(
          partial: Partial(options: options), position: last, bytes: 0, notes: gone ? [] : [note])
        gone = true
      } else {
        reading = try LogState.readNew(path, since: position, options: options, format: format)
        if gone { reading.notes.insert("\(path) has appeared: following the new file", at: 0) }
        gone = false
      }
      partial.append(reading.partial)
      position = reading.position
      do {
        try refresh(partial, reading)
      } catch {
        throw LogInputError("\(error)")
      }
      do { try await clock.sleep(for: interval) } catch { break }
    } while !Task.isCancelled
    // `position` is set: the loop ran at least once.
    return LogState(partial: partial, position: position!)
  }
}
