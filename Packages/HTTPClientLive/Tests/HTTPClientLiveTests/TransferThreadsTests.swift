import Dispatch
import Foundation
import HTTPClient
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

  /// Stopped, a transfer lets go of its thread at once (a wait that `stop()` wakes), not at
  /// libcurl's next callback, a second away on a quiet connection: so stopping and starting
  /// transfers one after another (removing running downloads, each starting the next) keeps to
  /// a thread or two, where it once left one behind for every stop.
  @Test func aStoppedTransferLetsGoOfItsThreadForTheNext() async throws {
    let (server, port) = try ServerProcess.script()
    let threads = TransferThreads(keepIdleFor: 60)
    let share = CurlShare(cookies: HTTPConfiguration().cookies)
    let stops = 20
    for _ in 0..<stops {
      let headSeen = AsyncStream<Void>.makeStream()
      let transfer = CurlTransfer(
        request: HTTPRequest(
          url: URL(string: "http://127.0.0.1:\(port)/stall")!, idleTimeout: .seconds(60)),
        receiver: HTTPReceiver(
          head: { _ in
            headSeen.continuation.yield()
            return true
          },
          body: { _ in true }),
        configuration: HTTPConfiguration(), share: share, threads: threads)
      let running = Task { try await transfer.run() }
      for await _ in headSeen.stream { break }
      transfer.stop()
      await #expect(throws: CancellationError.self) { try await running.value }
    }
    // Two here, where waiting for libcurl's next callback took 10 to 12; a few more when the
    // machine is so busy that a woken thread is late for the next transfer.
    #expect(threads.startedThreads <= 5)
    withExtendedLifetime(server) {}
  }
}
