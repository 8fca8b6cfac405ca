import DownloadClient
import Foundation
import HTTPClient
import Synchronization
import Testing

@testable import DownloadClientLive

/// Adding a list of downloads at once (`DownloadClient.start(_:)` of a list): each request as
/// it would be alone, the new ones in one change of the queue.
@Suite struct ListTests {
  private let server = URL(string: "http://server.test/")!

  /// A list with every kind of request: new ones, one already in the queue, one that adds
  /// another of it, one that is no HTTP URL, two of one file name, and one whose name is a
  /// part file's. All start paused, so that nothing runs meanwhile.
  private var requests: [DownloadRequest] {
    let urls = ["a.bin", "b.bin", "a.bin", "x/f.bin", "y/f.bin", "a.bin", "c.bin"].map {
      server.appendingPathComponent($0)
    }
    var list = urls.map { DownloadRequest(url: $0) }
    list[5].addsAnother = true
    list.insert(DownloadRequest(url: URL(string: "ftp://server.test/d.bin")!), at: 3)
    var named = DownloadRequest(url: server.appendingPathComponent("e.bin"))
    named.destination = URL(fileURLWithPath: "/tmp/e.bin.part")
    list.insert(named, at: 6)
    for index in list.indices { list[index].startsPaused = true }
    return list
  }

  @Test func aListIsAddedAsEachRequestAloneWouldBeInFewerChanges() async throws {
    let (together, togetherChanges) = try await added { client, requests in
      await client.start(requests)
    }
    let (alone, aloneChanges) = try await added { client, requests in
      var results: [Result<Download, any Error>] = []
      for request in requests {
        do {
          results.append(.success(try await client.start(request)))
        } catch {
          results.append(.failure(error))
        }
      }
      return results
    }
    #expect(together.results == alone.results)
    #expect(together.queue == alone.queue)
    #expect(
      together.results == [
        "a.bin paused", "b.bin paused", "a.bin paused",
        "not an http or https URL: ftp://server.test/d.bin", "f.bin paused", "f.1.bin paused",
        "/tmp/e.bin.part: a name that ends in .part is kept for the part files of downloads; "
          + "give the download another name",
        "a.1.bin paused", "c.bin paused",
      ])
    #expect(together.queue.count == 6)
    // a and b; x/f; y/f alone, as x/f took its name in the same change; the last two. The
    // requests that are not new change nothing.
    #expect(togetherChanges == 4)
    #expect(aloneChanges == 6)
  }

  @Test func aListTheQueueCannotTakeFailsEachRequestWithTheCause() async throws {
    let folder = try TemporaryFolder()
    let filling = FillingStore()
    filling.fill()
    let client = client(HTTPScript([]), folder: folder, store: filling.store)
    let results = await client.start(Array(requests.prefix(3)))
    #expect(results.count == 3)
    for result in results {
      guard case .failure(let error) = result else {
        Issue.record("added to a full queue: \(result)")
        continue
      }
      #expect("\(error)".contains("No space left on device"))
    }
    #expect(try await client.list().isEmpty)
  }

  /// How `add` went for `requests` on a fresh client with auto-renaming: each result as
  /// "file status" or the error, the queue as "URL file status", and how many changes of the
  /// queue it made.
  private func added(
    _ add: (DownloadClient, [DownloadRequest]) async -> [Result<Download, any Error>]
  ) async throws -> (outcome: (results: [String], queue: [String]), changes: Int) {
    let folder = try TemporaryFolder()
    let changes = Mutex(0)
    let inner = DownloadStore.inMemory()
    let store = DownloadStore(
      transaction: { body in
        changes.withLock { $0 += 1 }
        try inner.transaction(body)
      },
      read: { body in try inner.read(body) })
    let client = client(HTTPScript([]), folder: folder, store: store) {
      $0.autoFileRenaming = true
    }
    let results = await add(client, requests).map { result in
      switch result {
      case .success(let download):
        "\(download.destination?.lastPathComponent ?? "-") \(download.status)"
      case .failure(let error):
        "\(error)"
      }
    }
    let queue = try await client.list().map { download in
      "\(download.request.url.path) \(download.destination?.lastPathComponent ?? "-") \(download.status)"
    }
    return ((results, queue), changes.withLock { $0 })
  }
}
