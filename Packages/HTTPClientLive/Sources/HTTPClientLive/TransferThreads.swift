import Foundation

/// Threads for transfers, which block in libcurl: a thread stays a while after its transfer,
/// so that the next one does not pay for starting a thread (with thousands of small files,
/// that was a tenth of the time). A transfer never waits for a thread: when none is idle, a
/// new one starts.
///
/// `@unchecked Sendable`: `jobs` and `idle` are only touched while holding `condition`.
final class TransferThreads: @unchecked Sendable {
  static let shared = TransferThreads(keepIdleFor: 10)

  private let condition = NSCondition()
  private var jobs: [@Sendable () -> Void] = []
  /// Threads waiting for a job.
  private var idle = 0
  /// Threads started so far.
  private var started = 0
  private let keepIdleFor: TimeInterval

  init(keepIdleFor: TimeInterval) {
    self.keepIdleFor = keepIdleFor
  }

  /// The threads waiting for a job now.
  var idleThreads: Int {
    condition.lock()
    defer { condition.unlock() }
    return idle
  }

  /// The threads started so far, ended or not.
  var startedThreads: Int {
    condition.lock()
    defer { condition.unlock() }
    return started
  }

  /// Runs `job` on an idle thread, or on a new one when there are fewer idle threads than
  /// jobs waiting. The idle thread is woken after the lock is let go, so that it does not
  /// wake only to wait for the lock (a waiter looks for jobs under the lock before it waits:
  /// no wake-up is lost).
  func run(_ job: @escaping @Sendable () -> Void) {
    condition.lock()
    jobs.append(job)
    let enoughIdle = idle >= jobs.count
    if !enoughIdle { started += 1 }
    condition.unlock()
    if enoughIdle { condition.signal() } else { Thread { self.work() }.start() }
  }

  /// Runs jobs until none came for `keepIdleFor` seconds.
  private func work() {
    condition.lock()
    while true {
      while jobs.isEmpty {
        idle += 1
        let signalled = condition.wait(until: Date(timeIntervalSinceNow: keepIdleFor))
        idle -= 1
        if !signalled && jobs.isEmpty {
          condition.unlock()
          return
        }
      }
      let job = jobs.removeFirst()
      condition.unlock()
      job()
      condition.lock()
    }
  }
}
