import Dispatch
import Foundation
import Synchronization
import Testing

@testable import HTTPClientLive

#if canImport(Glibc)
  import Glibc
#endif

@Suite(.timeLimit(.minutes(10))) struct TransferThreadsTests {
  /// Transfers block their thread: each must get one at once, however many run together.
  @Test func jobsThatWaitForEachOtherAllRun() {
    let threads = TransferThreads(keepIdleFor: 60)
    let count = 40
    let started = Mutex(0)
    let gate = DispatchSemaphore(value: 0)
    let finished = DispatchGroup()
    for _ in 0..<count {
      finished.enter()
      threads.run {
        let all = started.withLock {
          $0 += 1
          return $0 == count
        }
        if all { for _ in 0..<count { gate.signal() } }
        gate.wait()
        finished.leave()
      }
    }
    #expect(finished.wait(timeout: .now() + 30) == .success)
  }

  @Test func aThreadIsUsedAgainByTheNextJob() {
    let threads = TransferThreads(keepIdleFor: 60)
    let ran = Mutex<[pthread_t]>([])
    let done = DispatchSemaphore(value: 0)
    threads.run {
      ran.withLock { $0.append(pthread_self()) }
      done.signal()
    }
    #expect(done.wait(timeout: .now() + 30) == .success)
    // The thread goes back to waiting right after its job.
    while threads.idleThreads == 0 { sched_yield() }
    threads.run {
      ran.withLock { $0.append(pthread_self()) }
      done.signal()
    }
    #expect(done.wait(timeout: .now() + 30) == .success)
    let ids = ran.withLock { $0 }
    #expect(ids.count == 2 && ids[0] == ids[1])
  }
}
