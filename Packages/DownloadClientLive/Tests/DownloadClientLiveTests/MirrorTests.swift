import Checksum
import ChecksumTypes
import DownloadClient
import Foundation
import HTTPClient
import Reachability
import Synchronization
import TestClocks
import Testing

@testable import DownloadClientLive

/// Servers by host name: each serves its file with its own ETag, answers ranges with 206 and
/// honours `If-Range`; a host without a file refuses connections. Records every request.
private final class MirrorServers: Sendable {
  private let files: [String: Data]
  let requests = Mutex<[HTTPRequest]>([])
  /// Answers end after this many body bytes while set, as a dropped connection would (only
  /// those of the hosts in `dropping`, when set).
  let dropAfter = Mutex<Int?>(nil)
  let dropping = Mutex<Set<String>?>(nil)
  /// Answers say no `Content-Length` while set (as a chunked one would).
  let withoutLength = Mutex(false)

  init(_ files: [String: Data]) {
    self.files = files
  }

  /// The requests to `host`.
  func requests(to host: String) -> [HTTPRequest] {
    requests.withLock { $0.filter { $0.url.host == host } }
  }

  var client: HTTPClient {
    HTTPClient { request, receiver in
      self.requests.withLock { $0.append(request) }
      let host = request.url.host ?? ""
      guard let body = self.files[host] else { throw HTTPError.connect("\(host): refused") }
      var headers: HTTPHeaders = ["ETag": "\"\(host)-\(body.count)\""]
      var status = 200
      var slice = body[...]
      if let start = request.rangeStart, start >= body.count {
        let head = HTTPResponseHead(status: 416, headers: headers, url: request.url)
        _ = await receiver.head(head)
        return
      }
      if let start = request.rangeStart,
        request.ifRange == nil || request.ifRange == headers["ETag"]
      {
        let end = Int(request.rangeEnd ?? Int64(body.count - 1))
        slice = body[Int(start)...min(end, body.count - 1)]
        status = 206
        headers["Content-Range"] = "bytes \(start)-\(slice.endIndex - 1)/\(body.count)"
      }
      if !self.withoutLength.withLock({ $0 }) { headers["Content-Length"] = "\(slice.count)" }
      guard
        await receiver.head(HTTPResponseHead(status: status, headers: headers, url: request.url))
      else { return }
      let cut =
        self.dropping.withLock { $0?.contains(host) ?? true } ? self.dropAfter.withLock { $0 } : nil
      if let cut { slice = slice.prefix(cut) }
      var offset = slice.startIndex
      while offset < slice.endIndex {
        let piece = slice[offset..<min(offset + 10_000, slice.endIndex)]
        guard receiver.body(Data(piece)) else { return }
        offset = piece.endIndex
      }
      if cut != nil { throw HTTPError.connectionLost("dropped") }
    }
  }
}

/// The lines a download client logged.
private final class LogLines: Sendable {
  private let lines = Mutex<[String]>([])
  var all: [String] { lines.withLock { $0 } }
  func append(_ line: String) { lines.withLock { $0.append(line) } }
}

private let body = content(100_000)

/// The SHA-1 digests of `data`'s pieces of 16 KiB.
private func pieces(of data: Data) -> PieceChecksums {
  let hashes = stride(from: 0, to: data.count, by: 16_384).map { start in
    var hasher = Digest(.sha1)
    hasher.update(data[start..<min(data.count, start + 16_384)])
    return hasher.finalize()
  }
  return PieceChecksums(.sha1, length: 16_384, hashes: hashes)!
}
/// Large enough for 8 segments of 1 MiB.
private let large = content(8 << 20)
private let urls = ["dead", "a", "b", "other"].map { URL(string: "http://\($0).test/f.bin")! }

private func client(
  _ servers: MirrorServers, folder: TemporaryFolder, store: DownloadStore = .inMemory(),
  log: LogLines = LogLines(), configure: (inout DownloadConfiguration) -> Void = { _ in }
) -> DownloadClient {
  var configuration = DownloadConfiguration(outputDirectory: folder.url)
  configuration.log = LogSink(level: .error) { _, line in log.append(line) }
  configure(&configuration)
  return .live(
    configuration: configuration, store: store, http: servers.client, clock: ImmediateClock(),
    reachability: .reachable, random: { 0.5 })
}

@Suite(.timeLimit(.minutes(10))) struct MirrorTests {
  @Test func aDeadFirstMirrorIsDroppedAndTheNextServesTheFile() async throws {
    let folder = try TemporaryFolder()
    let servers = MirrorServers(["a.test": body])
    let log = LogLines()
    let request = DownloadRequest(url: urls[0], mirrors: [urls[1]])
    let end = try await download(
      request, with: client(servers, folder: folder, log: log) { $0.maxRetries = 0 })
    #expect(end == .finished(end.downloadID, file: folder.file("f.bin"), bytes: 100_000))
    #expect(try Data(contentsOf: folder.file("f.bin")) == body)
    #expect(servers.requests(to: "dead.test").count == 1)
    #expect(
      log.all == [
        "\(end.downloadID): http://dead.test/f.bin: dead.test: refused; going on with "
          + "http://a.test/f.bin"
      ])
  }

  @Test func segmentsComeFromEveryLiveMirrorAndNeverFromAnotherFile() async throws {
    let folder = try TemporaryFolder()
    let other = content(7 << 20, seed: 3)
    let servers = MirrorServers(["a.test": large, "b.test": large, "other.test": other])
    let log = LogLines()
    let request = DownloadRequest(url: urls[1], mirrors: [urls[0], urls[2], urls[3]])
    let end = try await download(
      request, with: client(servers, folder: folder, log: log) { $0.segments = 8 })
    #expect(end == .finished(end.downloadID, file: folder.file("f.bin"), bytes: Int64(large.count)))
    #expect(try Data(contentsOf: folder.file("f.bin")) == large)
    // Both good mirrors served segments; the dead one and the other file were dropped.
    #expect(servers.requests(to: "a.test").count >= 3)
    #expect(servers.requests(to: "b.test").count >= 2)
    // The segments shared out to each before it failed (8 over 4 mirrors: 2 each), and one
    // that moved there from the other before it failed too.
    #expect((2...3).contains(servers.requests(to: "dead.test").count))
    #expect((2...3).contains(servers.requests(to: "other.test").count))
    let lines = log.all
    #expect(lines.count == 2)
    // Whichever of its segments failed first says why: its size, or a range past its end.
    #expect(
      lines.contains {
        $0.contains(": http://other.test/f.bin serves 7340032 bytes, not 8388608; going on with")
          || $0.contains(": http://other.test/f.bin: the server answered HTTP 416; going on with")
      })
  }

  @Test func aSingleConnectionMovesToAMirrorWithTheBytesOnDisk() async throws {
    let folder = try TemporaryFolder()
    let servers = MirrorServers(["a.test": body, "b.test": body])
    servers.dropAfter.withLock { $0 = 30_000 }
    let store = DownloadStore.inMemory()
    let request = DownloadRequest(url: urls[1], mirrors: [urls[2]])
    let first = try await download(
      request, with: client(servers, folder: folder, store: store) { $0.maxRetries = 0 })
    guard case .failed = first else {
      Issue.record("\(first)")
      return
    }
    // a gave 30,000 bytes, b gave 30,000 more from there (its size matched), then failed.
    #expect(servers.requests(to: "b.test").first?.rangeStart == 30_000)
    #expect(servers.requests(to: "b.test").first?.ifRange == nil)
    #expect(try Data(contentsOf: folder.file("f.bin.part")) == body.prefix(60_000))

    // The record keeps the mirrors and what each answered: a resume asks each with If-Range.
    let record = try #require(try store.records().first)
    #expect(record.download.request.mirrors == [urls[2]])
    #expect(record.mirrorValidators?["http://b.test/f.bin"] == "\"b.test-100000\"")
    servers.dropAfter.withLock { $0 = nil }
    let resumed = try await download(request, with: client(servers, folder: folder, store: store))
    #expect(resumed == .finished(resumed.downloadID, file: folder.file("f.bin"), bytes: 100_000))
    #expect(try Data(contentsOf: folder.file("f.bin")) == body)
    #expect(servers.requests(to: "a.test").last?.ifRange == "\"a.test-100000\"")
  }

  @Test func theLastMirrorWithAnotherSizeStartsTheFileOverInsteadOfMixingIn() async throws {
    let folder = try TemporaryFolder()
    let other = content(90_000, seed: 9)
    let servers = MirrorServers(["a.test": body, "b.test": other])
    servers.dropAfter.withLock { $0 = 30_000 }
    servers.dropping.withLock { $0 = ["a.test"] }
    let request = DownloadRequest(url: urls[1], mirrors: [urls[2]])
    let end = try await download(request, with: client(servers, folder: folder))
    #expect(end == .finished(end.downloadID, file: folder.file("f.bin"), bytes: 90_000))
    #expect(try Data(contentsOf: folder.file("f.bin")) == other)
    // b was asked to go on from a's bytes, refused to be mixed in, then gave its whole file.
    #expect(servers.requests(to: "b.test").map(\.rangeStart) == [30_000, nil])
  }

  @Test func aMirrorOfAnotherSchemeIsRefused() async throws {
    let folder = try TemporaryFolder()
    let servers = MirrorServers(["a.test": body])
    let request = DownloadRequest(
      url: urls[1], mirrors: [URL(string: "ftp://user:pw@m.test/f.bin")!])
    await #expect(throws: DownloadError.unsupportedURL("ftp://user:***@m.test/f.bin")) {
      try await client(servers, folder: folder).start(request)
    }
    #expect(servers.requests.withLock { $0.isEmpty })
  }

  @Test func secretHeadersGoOnlyToTheGivenURLsOrigin() async throws {
    let folder = try TemporaryFolder()
    let servers = MirrorServers(["a.test": large, "b.test": large])
    let request = DownloadRequest(
      url: urls[1], headers: ["Authorization": "Bearer s3cret", "X-Trace": "1"],
      mirrors: [urls[2]])
    _ = try await download(request, with: client(servers, folder: folder) { $0.segments = 2 })
    let toA = try #require(servers.requests(to: "a.test").last)
    let toB = try #require(servers.requests(to: "b.test").last)
    #expect(toA.header("Authorization") == "Bearer s3cret")
    #expect(toB.header("Authorization") == nil)
    #expect(toB.header("X-Trace") == "1")
  }
}

/// Metalink's piece digests: a damaged piece is found and fetched again alone.
@Suite(.timeLimit(.minutes(10))) struct PieceMendingTests {
  /// `body` with byte 40,000 (in piece 2 of 16 KiB) changed.
  private static let damaged: Data = {
    var copy = body
    copy[40_000] ^= 0xff
    return copy
  }()

  private func sha256(_ data: Data) -> String {
    var hasher = Digest(.sha256)
    hasher.update(data)
    return hasher.finalize()
  }

  @Test(arguments: [true, false])
  func aDamagedPieceIsFetchedAgainFromAMirrorThatServesItRight(withFileHash: Bool) async throws {
    let folder = try TemporaryFolder()
    let servers = MirrorServers(["a.test": Self.damaged, "b.test": body])
    let log = LogLines()
    let request = DownloadRequest(
      url: urls[1],
      expectedChecksum: withFileHash ? FileChecksum(.sha256, hex: sha256(body)) : nil,
      mirrors: [urls[2]], pieceChecksums: pieces(of: body))
    let end = try await download(request, with: client(servers, folder: folder, log: log))
    #expect(end == .finished(end.downloadID, file: folder.file("f.bin"), bytes: 100_000))
    #expect(try Data(contentsOf: folder.file("f.bin")) == body)
    // The whole file from a, then piece 2 from a (damaged again: dropped) and from b.
    #expect(servers.requests(to: "a.test").map(\.rangeStart) == [nil, 32_768])
    #expect(servers.requests(to: "b.test").map(\.rangeStart) == [32_768])
    #expect(servers.requests(to: "b.test").first?.rangeEnd == 49_151)
    let id = end.downloadID
    #expect(
      log.all == [
        "\(id): 1 of 7 pieces are damaged (SHA-1); fetching them again",
        "\(id): http://a.test/f.bin serves the bytes 32768-49151 damaged",
      ])
  }

  @Test func aPieceNoMirrorServesRightFailsTheDownload() async throws {
    let folder = try TemporaryFolder()
    let servers = MirrorServers(["a.test": Self.damaged])
    let request = DownloadRequest(url: urls[1], pieceChecksums: pieces(of: body))
    let end = try await download(request, with: client(servers, folder: folder))
    guard case .failed(_, .checksumMismatch(let expected, _)) = end else {
      Issue.record("\(end)")
      return
    }
    #expect(expected.hex == pieces(of: body).hashes[2])
    #expect(!FileManager.default.fileExists(atPath: folder.file("f.bin").path))
    #expect(!FileManager.default.fileExists(atPath: folder.file("f.bin.part").path))
  }
}

/// A size the download must have (a Metalink's `<size>`) holds as a checksum does.
@Suite(.timeLimit(.minutes(10))) struct ExpectedSizeTests {
  private func request(_ url: URL, mirrors: [URL] = [], size: Int64 = 100_000) -> DownloadRequest {
    var request = DownloadRequest(url: url, mirrors: mirrors)
    request.expectedSize = size
    return request
  }

  @Test func aServerOfAnotherSizeFailsTheDownloadAndWritesNothing() async throws {
    let folder = try TemporaryFolder()
    let servers = MirrorServers(["a.test": content(120_000)])
    let end = try await download(request(urls[1]), with: client(servers, folder: folder))
    #expect(
      end
        == .failed(
          end.downloadID,
          .unrecoverable("http://a.test/f.bin serves 120000 bytes, not the 100000 expected")))
    #expect(servers.requests(to: "a.test").count == 1)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
  }

  @Test(arguments: [1, 8])
  func aMirrorOfAnotherSizeIsDroppedForOneOfTheSize(segments: Int) async throws {
    let folder = try TemporaryFolder()
    let servers = MirrorServers(["a.test": content(7 << 20, seed: 3), "b.test": large])
    let log = LogLines()
    let end = try await download(
      request(urls[1], mirrors: [urls[2]], size: Int64(large.count)),
      with: client(servers, folder: folder, log: log) { $0.segments = segments })
    #expect(end == .finished(end.downloadID, file: folder.file("f.bin"), bytes: 8 << 20))
    #expect(try Data(contentsOf: folder.file("f.bin")) == large)
    #expect(
      log.all == [
        "\(end.downloadID): http://a.test/f.bin serves 7340032 bytes, not the 8388608 expected; "
          + "going on with http://b.test/f.bin"
      ])
  }

  @Test func aFinishedFileOfAnotherSizeIsRefusedWithoutALength() async throws {
    let folder = try TemporaryFolder()
    let servers = MirrorServers(["a.test": content(120_000)])
    servers.withoutLength.withLock { $0 = true }
    let end = try await download(request(urls[1]), with: client(servers, folder: folder))
    #expect(end == .failed(end.downloadID, .lengthMismatch(expected: 100_000, received: 120_000)))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
  }

  @Test func piecesThatDoNotCoverTheServedSizeFailTheDownload() async throws {
    // Pieces of 100,000 bytes; the server sends 120,000 of other content, and no file hash.
    let folder = try TemporaryFolder()
    let servers = MirrorServers(["a.test": content(120_000, seed: 5)])
    let end = try await download(
      DownloadRequest(url: urls[1], pieceChecksums: pieces(of: body)),
      with: client(servers, folder: folder))
    #expect(
      end
        == .failed(
          end.downloadID,
          .unrecoverable(
            "the file has 120000 bytes, which its 7 pieces of 16384 bytes do not cover")))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
  }
}
