import CounterStore
import CounterStoreLive
import Foundation
import Testing

@Suite struct CounterStoreLiveTests {
  @Test func keepsTheCountAcrossInstancesInItsFile() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("CounterStoreLiveTests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }

    let count = try await CounterStore.live(directory: directory)
      .update(CounterStore.timesFetchedKey) { ($0 ?? 0) + 1 }
    #expect(count == 1)

    let reopened = CounterStore.live(directory: directory)
    #expect(try await reopened.load(CounterStore.timesFetchedKey) == 1)
    let json = try String(
      contentsOf: directory.appendingPathComponent("counters.json"), encoding: .utf8)
    #expect(json.contains(#""timesFetched" : 1"#))
  }
}
