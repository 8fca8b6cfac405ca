import DownloadClient
import Foundation
import HTTPClient
import Reachability
import TestClocks
import Testing

@testable import DownloadClientLive

/// A process that ends between moving a file into place and saving its record: the next run
/// finishes the record instead of fetching the file again into "exists".
@Suite(.timeLimit(.minutes(1))) struct PlacingTests {
  private let url = URL(string: "http://server.test/files/data.bin")!
  private let body = content(1000)

  /// `store`, whose writes fail once one of them marks a download done, as a full disk or a
  /// process killed after the move leaves it.
  private func failingAtDone(_ store: DownloadStore) -> DownloadStore {
    DownloadStore { body in
      try store.transaction { state in
        var copy = state
        try body(&copy)
        if copy.records.values.contains(where: { $0.download.status == .completed }) {
          throw CocoaError(.fileWriteOutOfSpace)
        }
        try body(&state)
      }
    }
  }

  private func client(_ http: HTTPClient, folder: TemporaryFolder, store: DownloadStore)
    -> DownloadClient
  {
    .live(
      configuration: DownloadConfiguration(outputDirectory: folder.url), store: store,
      http: http, clock: ImmediateClock(), reachability: .reachable, random: { 0.5 })
  }

  private func run(_ client: DownloadClient) async throws -> DownloadEvent {
    try await download(DownloadRequest(url: url), with: client)
  }

  @Test func aRecordNotSavedAfterTheMoveIsFinishedByTheNextRun() async throws {
    let folder = try TemporaryFolder()
    let store = DownloadStore.inMemory()
    let first = HTTPScript([.init(headers: ["ETag": "\"v1\""], body: body)])
    let cut = try await run(client(first.client, folder: folder, store: failingAtDone(store)))
    guard case .failed(_, let error) = cut else {
      Issue.record("\(cut)")
      return
    }
    #expect("\(error)".contains("is complete, but the queue could not be saved"))
    #expect(try Data(contentsOf: folder.file("data.bin")) == body)
    #expect(try store.records().first?.placing == true)

    let untouched = HTTPScript([])
    let next = try await run(client(untouched.client, folder: folder, store: store))
    #expect(
      next == .finished(next.downloadID, file: folder.file("data.bin"), bytes: Int64(body.count)))
    #expect(untouched.requests.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: folder.file("data.bin.part").path))
    let record = try #require(try store.records().first)
    #expect(record.download.status == .completed && !record.placing)
  }

  @Test func aPartFileLeftWhilePlacingIsMovedByTheNextRun() async throws {
    let folder = try TemporaryFolder()
    let store = DownloadStore.inMemory()
    let first = HTTPScript([.init(headers: ["ETag": "\"v1\""], body: body)])
    _ = try await run(client(first.client, folder: folder, store: failingAtDone(store)))
    // As if the process had ended before the move.
    try FileManager.default.moveItem(at: folder.file("data.bin"), to: folder.file("data.bin.part"))
    let untouched = HTTPScript([])
    let next = try await run(client(untouched.client, folder: folder, store: store))
    #expect(
      next == .finished(next.downloadID, file: folder.file("data.bin"), bytes: Int64(body.count)))
    #expect(untouched.requests.isEmpty)
    #expect(try Data(contentsOf: folder.file("data.bin")) == body)
  }

  @Test func aFileInPlaceOfAnotherSizeIsNotTakenForTheDownload() async throws {
    let folder = try TemporaryFolder()
    let store = DownloadStore.inMemory()
    let first = HTTPScript([.init(headers: ["ETag": "\"v1\""], body: body)])
    _ = try await run(client(first.client, folder: folder, store: failingAtDone(store)))
    try Data("someone else's".utf8).write(to: folder.file("data.bin"))
    let again = HTTPScript([.init(headers: ["ETag": "\"v1\""], body: body)])
    let next = try await run(client(again.client, folder: folder, store: store))
    #expect(again.requests.count == 1)
    guard case .failed(_, let error) = next else {
      Issue.record("\(next)")
      return
    }
    #expect(error == .destinationExists(folder.file("data.bin").path))
  }
}
