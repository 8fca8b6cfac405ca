import DownloadClient
import Foundation
import Synchronization

/// The mutable state of one attempt, shared by the engine and the transport's callbacks.
final class AttemptState: Sendable {
  enum Outcome: Equatable {
    case completed
    /// A conditional request found the file on disk unchanged.
    case unchanged
    case failed(DownloadError, retryAfter: Duration?)
    /// The download stopped because its record could not be saved (it is paused, saying so)
    /// or is gone; the engine has said which.
    case stopped
  }

  private struct State {
    var handle: FileHandle?
    var part: URL?
    var received: Int64 = 0
    var expected: Int64?
    /// Whether every byte written is on the disk (`fsync`).
    var synced = true
    var outcome: Outcome?
    var meter = RateMeter()
  }

  private let state = Mutex(State())
  private let maxSize: Int64?
  private let now: @Sendable () -> Duration
  private let deadline: (after: Duration, error: DownloadError)
  private let progress: @Sendable (DownloadProgress) -> Void
  private let digest: RunningDigest?

  /// `now` is the time since the attempt started; past `deadline.after` the attempt fails
  /// with `deadline.error`. Every piece written is also added to `digest`.
  init(
    maxSize: Int64?, now: @escaping @Sendable () -> Duration,
    deadline: (after: Duration, error: DownloadError), digest: RunningDigest?,
    progress: @escaping @Sendable (DownloadProgress) -> Void
  ) {
    self.maxSize = maxSize
    self.now = now
    self.deadline = deadline
    self.digest = digest
    self.progress = progress
  }

  /// How the attempt ended, when that was decided before the transport finished.
  var outcome: Outcome? { state.withLock { $0.outcome } }

  /// Starts writing at the end of `handle` (the part file `part`), which already holds
  /// `received` bytes.
  func open(_ handle: FileHandle, part: URL, received: Int64, expected: Int64?) {
    state.withLock {
      $0.handle = handle
      $0.part = part
      $0.received = received
      $0.expected = expected
    }
  }

  func end(_ outcome: Outcome) {
    state.withLock { state in
      if state.outcome == nil { state.outcome = outcome }
    }
  }

  /// Appends a piece of the body; false stops the transfer.
  func write(_ data: Data) -> Bool {
    let update = state.withLock { state -> DownloadProgress?? in
      guard state.outcome == nil, let handle = state.handle else { return .none }
      // Checked before the write, so that the part file never holds more than the limit.
      if let maxSize, state.received + Int64(data.count) > maxSize {
        state.outcome = .failed(.tooLarge(limit: maxSize), retryAfter: nil)
        return .none
      }
      if let failure = PartFile.write(data, to: handle) {
        let path = state.part?.path ?? "the part file"
        state.outcome = .failed(.file("cannot write \(path): \(failure)"), retryAfter: nil)
        return .none
      }
      digest?.add(data)
      state.received += Int64(data.count)
      state.synced = false
      // The last byte of the file is on the disk before the transfer ends, on the
      // transport's thread: the engine, which moves the file into place, waits for no disk.
      if state.received == state.expected {
        do {
          try handle.synchronize()
          state.synced = true
        } catch {
          let path = state.part?.path ?? "the part file"
          state.outcome = .failed(.file("cannot write \(path): \(error)"), retryAfter: nil)
          return .none
        }
      }
      let time = now()
      if time >= deadline.after {
        state.outcome = .failed(deadline.error, retryAfter: nil)
        return .none
      }
      guard state.meter.record(bytes: state.received, at: time) else { return .some(nil) }
      let remaining = state.expected.map { $0 - state.received }
      return DownloadProgress(
        receivedBytes: state.received, expectedBytes: state.expected,
        bytesPerSecond: state.meter.bytesPerSecond,
        estimatedTimeRemaining: state.meter.timeRemaining(for: remaining))
    }
    switch update {
    case .none: return false
    case .some(.none): return true
    case .some(.some(let progress)):
      self.progress(progress)
      return true
    }
  }

  /// Flushes and closes the file.
  func close() {
    state.withLock { state in
      if !state.synced { try? state.handle?.synchronize() }
      try? state.handle?.close()
      state.handle = nil
    }
  }
}
