import DownloadClient
import DownloadClientLive
import Foundation
import HTTPClient
import Reachability
import TestClocks
import Testing

private let url = URL(string: "http://server.test/files/data.bin")!
private let body = content(1000)

/// curl's `--compressed` and `--speed-limit` as the engine passes them on.
@Suite(.timeLimit(.minutes(10))) struct CompressedDownloadTests {
  @Test func aCodedAnswerIsWrittenDecodedAndItsLengthIsNotTheFileSize() async throws {
    let folder = try TemporaryFolder()
    // The client decodes: the body arrives as the file's bytes, its length is the coded one.
    let stub = HTTPScript([
      .init(headers: ["Content-Encoding": "gzip", "Content-Length": "321"], body: body)
    ])
    let end = try await download(
      DownloadRequest(url: url), with: client(stub, folder: folder) { $0.compressed = true })
    #expect(end == .finished(end.downloadID, file: folder.file("data.bin"), bytes: 1000))
    #expect(try Data(contentsOf: folder.file("data.bin")) == body)
    let request = try #require(stub.requests.first)
    #expect(request.acceptsCompression)
    #expect(request.header("Accept-Encoding") == nil)
  }

  @Test func aResumeAfterACodedAnswerAsksForTheFilesOwnBytesWithLastModified() async throws {
    let folder = try TemporaryFolder()
    let date = "Tue, 14 Nov 2023 22:13:20 GMT"
    let stub = HTTPScript([
      .init(
        headers: ["Content-Encoding": "gzip", "ETag": "W/\"v1\"", "Last-Modified": date],
        body: body, dropAfter: 400),
      .init(
        status: 206, headers: ["Content-Range": "bytes 400-999/1000", "Last-Modified": date],
        body: body.suffix(600)),
    ])
    let end = try await download(
      DownloadRequest(url: url), with: client(stub, folder: folder) { $0.compressed = true })
    guard case .finished = end else {
      Issue.record("\(end)")
      return
    }
    #expect(try Data(contentsOf: folder.file("data.bin")) == body)
    let resumed = try #require(stub.requests.last)
    #expect(resumed.header("Range") == "bytes=400-")
    // A weak tag cannot validate a range (RFC 9110): the date does.
    #expect(resumed.header("If-Range") == date)
    #expect(resumed.header("Accept-Encoding") == "identity")
  }

  @Test func theMinimumSpeedGoesWithEveryRequest() async throws {
    let folder = try TemporaryFolder()
    let speed = MinimumSpeed(bytesPerSecond: 500, seconds: 7)
    let stub = HTTPScript([
      .failure(.tooSlow(speed)), .init(headers: ["ETag": "\"v1\""], body: body),
    ])
    let end = try await download(
      DownloadRequest(url: url), with: client(stub, folder: folder) { $0.minimumSpeed = speed })
    guard case .finished = end else {
      Issue.record("\(end)")
      return
    }
    #expect(stub.requests.count == 2)
    #expect(stub.requests.allSatisfy { $0.minimumSpeed == speed })
  }

  @Test func attemptsTooSlowUseUpTheRetriesEvenWhenBytesArrive() async throws {
    let folder = try TemporaryFolder()
    let speed = MinimumSpeed(bytesPerSecond: 500, seconds: 7)
    let date = "Tue, 14 Nov 2023 22:13:20 GMT"
    let stub = HTTPScript(
      [.init(headers: ["Last-Modified": date], body: body, dropAfter: 100, error: .tooSlow(speed))]
        + (1...3).map { attempt in
          .init(
            status: 206,
            headers: ["Last-Modified": date, "Content-Range": "bytes \(attempt * 100)-999/1000"],
            body: body.suffix(1000 - attempt * 100), dropAfter: 100, error: .tooSlow(speed))
        })
    let end = try await download(
      DownloadRequest(url: url),
      with: client(stub, folder: folder) {
        $0.minimumSpeed = speed
        $0.maxRetries = 3
      })
    #expect(end == .failed(end.downloadID, .tooSlow(bytesPerSecond: 500, seconds: 7)))
    #expect(stub.requests.count == 4)
    #expect(try Data(contentsOf: folder.file("data.bin.part")) == body.prefix(400))
  }
}

/// aria2c's `--auto-file-renaming`.
@Suite(.timeLimit(.minutes(10))) struct AutoFileRenamingTests {
  @Test func aTakenNameGetsTheFirstFreeNumberAndARunAgainFindsItsOwnFile() async throws {
    let folder = try TemporaryFolder()
    try Data("mine".utf8).write(to: folder.file("data.bin"))
    try Data("also mine".utf8).write(to: folder.file("data.1.bin"))
    let store = DownloadStore.inMemory()
    let stub = HTTPScript([.init(body: body)])
    let renaming = { (configuration: inout DownloadConfiguration) in
      configuration.autoFileRenaming = true
    }
    let end = try await download(
      DownloadRequest(url: url),
      with: client(stub, folder: folder, store: store, configure: renaming))
    #expect(end == .finished(end.downloadID, file: folder.file("data.2.bin"), bytes: 1000))
    #expect(try Data(contentsOf: folder.file("data.bin")) == Data("mine".utf8))
    #expect(try Data(contentsOf: folder.file("data.1.bin")) == Data("also mine".utf8))
    #expect(try Data(contentsOf: folder.file("data.2.bin")) == body)

    // The same command again: the download is done, nothing is fetched nor renamed.
    let again = try await client(stub, folder: folder, store: store, configure: renaming)
      .start(DownloadRequest(url: url))
    #expect(again.status == .completed)
    #expect(again.destination == folder.file("data.2.bin"))
    #expect(stub.requests.count == 1)
  }

  @Test func aNameAnotherDownloadWillWriteIsTakenToo() async throws {
    let folder = try TemporaryFolder()
    try Data("mine".utf8).write(to: folder.file("data.bin"))
    let stub = HTTPScript([])
    let client = client(stub, folder: folder) {
      $0.autoFileRenaming = true
      $0.maxConcurrentDownloads = 1
    }
    let first = try await client.start(
      DownloadRequest(url: URL(string: "http://server.test/other/data.bin")!))
    try await client.pause(first.id)
    let second = try await client.start(DownloadRequest(url: url))
    #expect(first.destination == folder.file("data.1.bin"))
    #expect(second.destination == folder.file("data.2.bin"))
  }

  @Test func theSameURLAddedAsAnotherIsADownloadOfItsOwnUnderAFreeName() async throws {
    let folder = try TemporaryFolder()
    let client = client(HTTPScript([]), folder: folder) {
      $0.autoFileRenaming = true
      $0.maxConcurrentDownloads = 1
    }
    var paused = DownloadRequest(url: url)
    paused.startsPaused = true
    let first = try await client.start(paused)
    // Without addsAnother, the same request goes on with the first: a paused one stays so.
    #expect(try await client.start(paused).id == first.id)
    paused.addsAnother = true
    let second = try await client.start(paused)
    let third = try await client.start(paused)
    #expect(Set([first.id, second.id, third.id]).count == 3)
    #expect(first.destination == folder.file("data.bin"))
    #expect(second.destination == folder.file("data.1.bin"))
    #expect(third.destination == folder.file("data.2.bin"))
    #expect(try await client.list().map(\.status) == [.paused, .paused, .paused])
  }

  @Test func aServerNameThatIsTakenIsNumberedToo() async throws {
    let folder = try TemporaryFolder()
    try Data("mine".utf8).write(to: folder.file("report.pdf"))
    let stub = HTTPScript([
      .init(headers: ["Content-Disposition": "attachment; filename=\"report.pdf\""], body: body)
    ])
    let end = try await download(
      DownloadRequest(url: url),
      with: client(stub, folder: folder) { $0.autoFileRenaming = true })
    #expect(end == .finished(end.downloadID, file: folder.file("report.1.pdf"), bytes: 1000))
    #expect(try Data(contentsOf: folder.file("report.pdf")) == Data("mine".utf8))
  }
}
