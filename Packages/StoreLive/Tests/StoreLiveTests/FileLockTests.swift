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

  /// A folder of the test's own, removed after `body`.
  private func inFolder(_ body: (String) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("FileLockTests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try body(folder)
  }

  /// The one way a file to lock is opened refuses what could lead the lock, or what is
  /// written to the file, elsewhere, and never waits for a FIFO's writer.
  @Test func aLinkAFIFOOrASecondNameIsRefused() throws {
    try inFolder { folder throws in
      let target = folder + "/target"
      try Data("mine".utf8).write(to: URL(fileURLWithPath: target))
      symlink(target, folder + "/link")
      mkfifo(folder + "/fifo", 0o600)
      link(target, folder + "/second")
      #expect(throws: FileLock.OpenError(path: folder + "/link", reason: "it is a symbolic link")) {
        try FileLock.open(folder + "/link")
      }
      #expect(
        throws: FileLock.OpenError(path: folder + "/fifo", reason: "it is not a regular file")
      ) { try FileLock.open(folder + "/fifo") }
      #expect(throws: FileLock.OpenError.self) { try FileLock.open(folder + "/second") }
      #expect(throws: FileLock.OpenError.self) {
        try FileLock.open(folder + "/missing", .init(creating: false))
      }
      #expect(try String(contentsOfFile: target, encoding: .utf8) == "mine")
    }
  }

  @Test func itsFolderIsMadeWhenAskedForPrivateUnlessToldOtherwise() throws {
    try inFolder { folder throws in
      #expect(throws: FileLock.OpenError.self) { try FileLock.open(folder + "/a/lock") }
      close(try FileLock.open(folder + "/a/lock", .init(makingFolder: true)))
      let made = try FileManager.default.attributesOfItem(atPath: folder + "/a")
      #expect(made[.posixPermissions] as? Int == 0o700)
      close(
        try FileLock.open(folder + "/b/part", .init(makingFolder: true, folderPermissions: nil)))
      let umasked = try FileManager.default.attributesOfItem(atPath: folder + "/b")
      #expect(umasked[.posixPermissions] as? Int != 0o700)
    }
  }

  @Test func acquireSaysWhetherAnotherHoldsIt() throws {
    try inFolder { folder throws in
      let path = folder + "/lock"
      guard case .taken(let holder) = try FileLock.acquire(path) else {
        Issue.record("a free lock was not taken")
        return
      }
      defer { close(holder) }
      guard case .heldElsewhere(let other) = try FileLock.acquire(path) else {
        Issue.record("a held lock was taken again")
        return
      }
      close(other)
    }
  }
}
