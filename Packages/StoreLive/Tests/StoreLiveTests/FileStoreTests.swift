import Foundation
import Store
import StoreLive
import Testing

/// A fresh folder for one test, removed when the test ends.
final class TemporaryFolder {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("StoreLiveTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

@Suite struct FileStoreTests {
  @Test func roundTripsValuesThroughTheFile() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("values.json")
    let store = Store<String, Int>.file(at: url)
    #expect(try await store.load("a") == nil)
    try await store.save("a", 1)
    try await store.save("b", 2)
    try await store.delete("b")

    let reopened = Store<String, Int>.file(at: url)
    #expect(try await reopened.load("a") == 1)
    #expect(try await reopened.load("b") == nil)
    let json = try String(contentsOf: url, encoding: .utf8)
    #expect(json.contains(#""a" : 1"#))
  }

  @Test func storesUUIDs() async throws {
    let folder = try TemporaryFolder()
    let code = UUID()
    try await Store<String, UUID>.file(at: folder.file("codes.json")).save("last", code)
    #expect(try await Store<String, UUID>.file(at: folder.file("codes.json")).load("last") == code)
  }

  @Test func createsMissingFolders() async throws {
    let folder = try TemporaryFolder()
    let url = folder.url.appendingPathComponent("a/b/values.json")
    try await Store<String, Int>.file(at: url).save("n", 1)
    #expect(FileManager.default.fileExists(atPath: url.path))
  }

  @Test func updateIsAtomicAcrossConcurrentCallers() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("counter.json")
    await withThrowingTaskGroup { group in
      for _ in 0..<50 {
        // A store per caller, as separate processes would have.
        group.addTask {
          _ = try await Store<String, Int>.file(at: url).update("n") { ($0 ?? 0) + 1 }
        }
      }
    }
    #expect(try await Store<String, Int>.file(at: url).load("n") == 50)
  }

  @Test func aCorruptFileIsAnErrorAndIsNeverOverwritten() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("counter.json")
    let garbage = Data("{\"n\": 3,".utf8)
    try garbage.write(to: url)
    let store = Store<String, Int>.file(at: url)

    for attempt in [
      { _ = try await store.load("n") },
      { try await store.save("n", 1) },
      { try await store.delete("n") },
      { _ = try await store.update("n") { ($0 ?? 0) + 1 } },
    ] {
      await #expect {
        try await attempt()
      } throws: { error in
        guard case .corrupt(let path, _) = error as? StoreFileError else { return false }
        return path == url.path && "\(error)".contains("left untouched")
      }
    }
    #expect(try Data(contentsOf: url) == garbage)
  }

  @Test func anEmptyFileIsCorruptNotEmpty() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("counter.json")
    #expect(FileManager.default.createFile(atPath: url.path, contents: Data()))
    await #expect(throws: StoreFileError.self) {
      try await Store<String, Int>.file(at: url).update("n") { ($0 ?? 0) + 1 }
    }
    #expect(try Data(contentsOf: url).isEmpty)
  }

  @Test func aFileOfAnotherShapeIsCorrupt() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("counter.json")
    try Data(#"{"n": "three"}"#.utf8).write(to: url)
    await #expect(throws: StoreFileError.self) {
      try await Store<String, Int>.file(at: url).load("n")
    }
  }

  @Test func anUnwritableFolderIsAClearError() async throws {
    let url = URL(fileURLWithPath: "/dev/null/state/values.json")
    await #expect {
      try await Store<String, Int>.file(at: url).save("n", 1)
    } throws: { error in
      guard case .unwritable = error as? StoreFileError else { return false }
      return "\(error)".hasPrefix("cannot write the state file /dev/null/state")
    }
  }

  @Test func aFailedWriteLeavesTheOldFileAndNoTemporaryFiles() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("values.json")
    let store = Store<String, Int>.file(at: url)
    try await store.save("n", 1)
    struct Refused: Error {}
    await #expect(throws: Refused.self) {
      try await store.update("n") { _ in throw Refused() }
    }
    #expect(try await store.load("n") == 1)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    #expect(names == ["values.json", "values.json.lock"])
  }
}

@Suite struct StateDirectoryTests {
  @Test func theOverrideVariableWins() {
    let url = StateDirectory.resolve(
      application: "fetcher", overrideVariable: "FETCHER_HOME",
      environment: ["FETCHER_HOME": "/tmp/f", "XDG_STATE_HOME": "/tmp/x", "HOME": "/home/u"])
    #expect(url.path == "/tmp/f")
  }

  @Test func thenXDGStateHome() {
    let url = StateDirectory.resolve(
      application: "fetcher", overrideVariable: "FETCHER_HOME",
      environment: ["FETCHER_HOME": "", "XDG_STATE_HOME": "/tmp/x", "HOME": "/home/u"])
    #expect(url.path == "/tmp/x/fetcher")
  }

  @Test func thenTheHomeFolder() {
    let url = StateDirectory.resolve(
      application: "fetcher", overrideVariable: "FETCHER_HOME", environment: ["HOME": "/home/u"])
    #expect(url.path == "/home/u/.local/state/fetcher")
  }

  @Test func theCacheFollowsTheSameOrder() {
    func cache(_ environment: [String: String]) -> String {
      StateDirectory.resolve(
        application: "fetcher", overrideVariable: "FETCHER_HOME", kind: .cache,
        environment: environment
      ).path
    }
    #expect(cache(["FETCHER_HOME": "/tmp/f", "XDG_CACHE_HOME": "/tmp/c"]) == "/tmp/f/cache")
    #expect(cache(["XDG_CACHE_HOME": "/tmp/c", "HOME": "/home/u"]) == "/tmp/c/fetcher")
    #expect(cache(["HOME": "/home/u"]) == "/home/u/.cache/fetcher")
  }
}
