import DownloadClient
import Foundation
import HTTPClient
import Reachability
import TestClocks
import Testing

@testable import DownloadClientLive

/// A process that ends between moving a file into place and saving its record: the next run
/// finishes the record instead of fetching the file again into "exists".
@Suite(.timeLimit(.minutes(10))) struct PlacingTests {
  private let url = URL(string: "http://server.test/files/data.bin")!
  private let body = content(1000)

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
    let cut = try await run(client(first.client, folder: folder, store: store.failingAtDone()))
    guard case .failed(_, let error) = cut else {
      Issue.record("\(cut)")
      return
    }
    #expect("\(error)".contains("is complete, but the queue could not be saved"))
    #expect(try Data(contentsOf: folder.file("data.bin")) == body)
    // The record names the part file, which the move kept: no write said "placing".
    let cutRecord = try #require(try store.records().first)
    #expect(!cutRecord.placing && cutRecord.partFile != nil)
    #expect(cutRecord.partFile == PartFile.status(of: folder.file("data.bin"))?.identity)

    let untouched = HTTPScript([])
    let next = try await run(client(untouched.client, folder: folder, store: store))
    #expect(
      next == .finished(next.downloadID, file: folder.file("data.bin"), bytes: Int64(body.count)))
    #expect(untouched.requests.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: folder.file("data.bin.part").path))
    let record = try #require(try store.records().first)
    #expect(record.download.status == .completed && !record.placing && record.partFile == nil)
  }

  @Test func aPartFileLeftWhilePlacingIsMovedByTheNextRun() async throws {
    let folder = try TemporaryFolder()
    let store = DownloadStore.inMemory()
    let first = HTTPScript([.init(headers: ["ETag": "\"v1\""], body: body)])
    _ = try await run(client(first.client, folder: folder, store: store.failingAtDone()))
    // As if the process had ended before the move.
    try FileManager.default.moveItem(at: folder.file("data.bin"), to: folder.file("data.bin.part"))
    let untouched = HTTPScript([])
    let next = try await run(client(untouched.client, folder: folder, store: store))
    #expect(
      next == .finished(next.downloadID, file: folder.file("data.bin"), bytes: Int64(body.count)))
    #expect(untouched.requests.isEmpty)
    #expect(try Data(contentsOf: folder.file("data.bin")) == body)
  }

  /// Someone else's file where the download's was moved: another size in the same file
  /// (written in place), or the same bytes in another file (another inode, written beside and
  /// renamed over it). Neither is taken for the download's.
  @Test(arguments: [false, true])
  func someoneElsesFileInPlaceOfTheMovedOneIsNotTakenForTheDownload(sameBytes: Bool)
    async throws
  {
    let folder = try TemporaryFolder()
    let store = DownloadStore.inMemory()
    let first = HTTPScript([.init(headers: ["ETag": "\"v1\""], body: body)])
    _ = try await run(client(first.client, folder: folder, store: store.failingAtDone()))
    if sameBytes {
      try body.write(to: folder.file("data.bin"), options: .atomic)
    } else {
      try Data("someone else's".utf8).write(to: folder.file("data.bin"))
    }
    let again = HTTPScript([.init(headers: ["ETag": "\"v1\""], body: body)])
    let next = try await run(client(again.client, folder: folder, store: store))
    #expect(again.requests.count == 1)
    guard case .failed(_, let error) = next else {
      Issue.record("\(next)")
      return
    }
    #expect(error == .destinationExists(folder.file("data.bin").path))
  }

  /// A record written by an earlier version, which said "placing" before every move.
  @Test func aRecordMarkedPlacingIsFinishedByTheNextRun() async throws {
    let folder = try TemporaryFolder()
    let store = DownloadStore.inMemory()
    let first = HTTPScript([.init(headers: ["ETag": "\"v1\""], body: body)])
    _ = try await run(client(first.client, folder: folder, store: store.failingAtDone()))
    try store.transaction { state in
      var record = try #require(state.records.values.first)
      (record.placing, record.partFile) = (true, nil)
      state.put(record)
    }
    let untouched = HTTPScript([])
    let next = try await run(client(untouched.client, folder: folder, store: store))
    #expect(
      next == .finished(next.downloadID, file: folder.file("data.bin"), bytes: Int64(body.count)))
    #expect(untouched.requests.isEmpty)
  }
}
