import ChecksumTypes
import DownloadClient
import DownloadFeature
import Foundation
import HTTPClient
import Metalink
import Testing

@Suite struct MetalinkDownloadsTests {
  private let folder = URL(fileURLWithPath: "/tmp/out", isDirectory: true)
  private let sha1 = String(repeating: "ab", count: 20)

  @Test func aFileIsADownloadWithItsMirrorsStrongestHashAndPieces() throws {
    let pieces = try #require(PieceChecksums(.sha1, length: 4, hashes: [sha1, sha1]))
    let file = Metalink.File(
      name: "sub/../a.iso", size: 8,
      hashes: [
        FileChecksum(.md5, hex: String(repeating: "0", count: 32))!,
        FileChecksum(.sha256, hex: String(repeating: "1", count: 64))!,
      ],
      pieces: pieces,
      urls: [
        .init(url: URL(string: "http://b/a.iso")!, priority: 2),
        .init(url: URL(string: "http://a/a.iso")!, priority: 1),
        .init(url: URL(string: "http://jp/a.iso")!, priority: 3, location: "jp"),
      ])
    let request = try file.request(in: folder, preferring: ["jp"], headers: ["X-A": "1"])
    #expect(request.url.absoluteString == "http://jp/a.iso")
    #expect(request.mirrors.map(\.absoluteString) == ["http://a/a.iso", "http://b/a.iso"])
    #expect(request.destination?.path == "/tmp/out/sub/a.iso")
    #expect(request.expectedChecksum?.algorithm == .sha256)
    #expect(request.pieceChecksums == pieces)
    #expect(request.expectedSize == 8)
    #expect(request.headers == ["X-A": "1"])
  }

  @Test func piecesThatDoNotCoverTheSizeAreAContradiction() throws {
    let pieces = try #require(PieceChecksums(.sha1, length: 4, hashes: [sha1]))
    let file = Metalink.File(
      name: "a", size: 100, pieces: pieces, urls: [.init(url: URL(string: "http://a/a")!)])
    #expect(throws: MetalinkError("a: its 1 pieces of 4 bytes do not cover its size of 100 bytes"))
    {
      try file.request(in: folder)
    }
  }

  @Test func piecesWithoutASizeAreKept() throws {
    let pieces = try #require(PieceChecksums(.sha1, length: 4, hashes: [sha1]))
    let file = Metalink.File(
      name: "a", pieces: pieces, urls: [.init(url: URL(string: "http://a/a")!)])
    let request = try file.request(in: folder)
    #expect(request.pieceChecksums == pieces)
    #expect(request.expectedSize == nil)
  }

  @Test func aFileWithoutAnHTTPURLOrANameCannotBeDownloaded() {
    #expect(throws: MetalinkError("a.iso: no http or https URL")) {
      try Metalink.File(name: "a.iso").request(in: folder)
    }
    #expect(throws: MetalinkError("../..: not a file name")) {
      try Metalink.File(name: "../..", urls: [.init(url: URL(string: "http://a/a")!)])
        .request(in: folder)
    }
  }
}

/// `download -M URL`: the document fetched, its status checked.
@Suite struct MetalinkFetchTests {
  private let document = Data(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <metalink xmlns="urn:ietf:params:xml:ns:metalink">
      <file name="a.iso"><url>http://h/a.iso</url></file>
    </metalink>
    """.utf8)

  @Test func aDocumentIsFetchedWithTheRequestsHeaders() async throws {
    let server = HTTPScript([.init(body: document)])
    let request = HTTPRequest(
      url: URL(string: "http://h/a.meta4")!, headers: ["User-Agent": "fetcher/4"])
    let metalink = try await Metalink.fetched(request, http: server.client)
    #expect(metalink.files.map(\.name) == ["a.iso"])
    #expect(server.requests.map(\.headers["User-Agent"]) == ["fetcher/4"])
  }

  @Test func anotherStatusOrABodyThatIsNoMetalinkIsAnError() async {
    let url = URL(string: "http://h/a.meta4")!
    await #expect(throws: MetalinkError("the server answered HTTP 404")) {
      try await Metalink.fetched(
        HTTPRequest(url: url), http: HTTPScript([.init(status: 404, body: document)]).client)
    }
    await #expect(throws: MetalinkError.self) {
      try await Metalink.fetched(
        HTTPRequest(url: url), http: HTTPScript([.init(body: Data("<html/>".utf8))]).client)
    }
    await #expect(throws: HTTPError.self) {
      try await Metalink.fetched(
        HTTPRequest(url: url), http: HTTPScript([.failure(.connect("refused"))]).client)
    }
  }
}
