import Foundation
import Testing

@testable import LogAnalysis

@Suite struct ConcurrentMapTests {
  /// The results come in index order however many threads run them; on one thread, every
  /// iteration runs on the caller's (a Spark task of one core stays on its core).
  @Test(arguments: [1, 2, 3, Int.max])
  func resultsComeInOrderOnAtMostTheThreadsGiven(threads: Int) {
    let caller = pthread_self()
    let ran = concurrentMap(40, threads: threads) { index in
      (index * index, pthread_equal(pthread_self(), caller) != 0)
    }
    #expect(ran.map { $0.0 } == (0..<40).map { $0 * $0 })
    if threads == 1 { #expect(ran.allSatisfy { $0.1 }) }
  }
}
