import Foundation
import Synchronization
import Testing

@testable import StoreLive

@Suite struct FileLockTests {
  /// A lock let go and taken again while this process starts others on another thread: each
  /// start holds a copy of the descriptors until its program runs, which a patient lock waits
  /// out (without patience, about one in twenty such locks failed).
  @Test func aPatientLockOutwaitsTheStartOfAProcess() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("FileLockTests-\(UUID().uuidString)").path
    defer { unlink(path) }
    let stop = Atomic<Bool>(false)
    let starter = Thread {
      while !stop.load(ordering: .relaxed) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try? process.run()
        process.waitUntilExit()
      }
    }
    starter.start()
    defer { stop.store(true, ordering: .relaxed) }
    var refused = 0
    for _ in 0..<20_000 {
      let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
      try #require(descriptor >= 0)
      if FileLock.tryExclusive(descriptor, patience: 250) != .taken { refused += 1 }
      close(descriptor)
    }
    #expect(refused == 0)
  }

  @Test func aLockHeldByAnotherOpenIsHeldElsewhere() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("FileLockTests-\(UUID().uuidString)").path
    defer { unlink(path) }
    let holder = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
    let other = open(path, O_WRONLY | O_CLOEXEC)
    defer {
      close(holder)
      close(other)
    }
    #expect(FileLock.tryExclusive(holder) == .taken)
    #expect(FileLock.tryExclusive(other, patience: 3) == .heldElsewhere)
  }
}
