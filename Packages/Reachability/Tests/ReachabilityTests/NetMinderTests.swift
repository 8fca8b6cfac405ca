import Foundation
import Reachability
import Synchronization
import Testing

private let host = ReachabilityHost(name: "server.test", port: 8000)

/// What the work handed to a minder did, in order.
private final class Journal: Sendable {
  private let entries = Mutex<[Int]>([])
  var all: [Int] { entries.withLock { $0 } }
  func add(_ entry: Int) { entries.withLock { $0.append(entry) } }
}

/// Lets other tasks run until `condition` holds.
private func yield(until condition: () -> Bool) async {
  while !condition() { await Task.yield() }
}

@Suite(.timeLimit(.minutes(10))) struct NetMinderTests {
  @Test func runsWorkAtOnceWhenTheHostIsReachable() async {
    let minder = NetMinder(reachability: .reachable, host: host)
    let journal = Journal()
    await minder.whenReachable { journal.add(1) }
    await minder.untilReachable()
    #expect(journal.all == [1])
  }

  @Test func keepsEveryPieceOfWorkUntilTheHostIsBackAndRunsThemInOrder() async {
    let (reachability, control) = Reachability.controlled(.unreachable)
    let minder = NetMinder(reachability: reachability, host: host)
    let journal = Journal()
    for entry in 1...3 { await minder.whenReachable { journal.add(entry) } }
    await yield { control.listenerCount == 1 }
    #expect(journal.all.isEmpty)
    #expect(await minder.pendingCount == 3)

    control.set(.reachable)
    await minder.untilReachable()
    #expect(journal.all == [1, 2, 3])
    #expect(await minder.pendingCount == 0)
  }

  @Test func waitsAgainAfterTheHostGoesAway() async {
    let (reachability, control) = Reachability.controlled(.reachable)
    let minder = NetMinder(reachability: reachability, host: host)
    let journal = Journal()
    await minder.whenReachable { journal.add(1) }
    await minder.untilReachable()
    await yield { control.listenerCount == 0 }

    control.set(.unreachable)
    await minder.whenReachable { journal.add(2) }
    await yield { control.listenerCount == 1 }
    #expect(journal.all == [1])
    control.set(.reachable)
    await minder.untilReachable()
    #expect(journal.all == [1, 2])
  }

  @Test func watchesNothingWhenNothingIsPending() async {
    let (reachability, control) = Reachability.controlled(.reachable)
    let minder = NetMinder(reachability: reachability, host: host)
    await minder.untilReachable()
    await yield { control.listenerCount == 0 }
    // One wait for the one piece of work, and none started again once it ran.
    for _ in 0..<100 { await Task.yield() }
    #expect(control.subscriptionCount == 1)
    #expect(control.listenerCount == 0)
  }
}

@Suite(.timeLimit(.minutes(10))) struct ReachabilityTests {
  @Test func waitUntilReachableReturnsOnceTheHostIsBack() async throws {
    let (reachability, control) = Reachability.controlled(.unreachable)
    let waiter = Task { try await reachability.waitUntilReachable(host) }
    await yield { control.listenerCount == 1 }
    control.set(.reachable)
    try await waiter.value
  }

  @Test func waitUntilReachableThrowsWhenCancelled() async {
    let (reachability, control) = Reachability.controlled(.unreachable)
    let waiter = Task { try await reachability.waitUntilReachable(host) }
    await yield { control.listenerCount == 1 }
    waiter.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
  }

  @Test func constantMocks() async {
    #expect(await Reachability.reachable.status(host) == .reachable)
    #expect(await Reachability.unreachable.status(host) == .unreachable)
  }

  @Test(arguments: [
    ("http://example.com/a", "example.com:80"), ("https://example.com", "example.com:443"),
    ("http://127.0.0.1:8123/x", "127.0.0.1:8123"),
  ])
  func hostsOfURLs(url: String, expected: String) throws {
    #expect(try #require(ReachabilityHost(url: URL(string: url)!)).description == expected)
  }

  @Test(arguments: ["ftp://example.com", "file:///tmp/x", "http://"])
  func noHostForOtherURLs(url: String) {
    #expect(ReachabilityHost(url: URL(string: url)!) == nil)
  }
}
