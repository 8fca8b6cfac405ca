import Foundation
import Testing

@testable import DownloadClientLive

@Suite struct HTTPHeadTests {
  @Test func parsesTheStatusAndHeaders() throws {
    let text =
      "HTTP/1.1 206 Partial Content\r\nContent-Length: 10\r\netag: \"v1\"\r\nX-A: 1\r\nX-A: 2"
    let head = try #require(HTTPHead(Array(text.utf8)))
    #expect(head.status == 206)
    #expect(head.contentLength == 10)
    #expect(head.value(for: "ETag") == "\"v1\"")
    #expect(head.value(for: "x-a") == "1, 2")
    #expect(!head.isChunked)
  }

  @Test func chunkedBodiesHaveNoLength() throws {
    let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5"
    let head = try #require(HTTPHead(Array(text.utf8)))
    #expect(head.isChunked)
    #expect(head.contentLength == nil)
  }

  @Test(arguments: [
    "", "garbage", "HTTP/1.1 abc OK", "SSH-2.0-OpenSSH", "HTTP/1.1 200 OK\r\nno colon",
  ])
  func rejectsWhatIsNotAnHTTPHead(text: String) {
    #expect(HTTPHead(Array(text.utf8)) == nil)
  }
}

@Suite struct ChunkedDecoderTests {
  private let encoded = Array(
    "5\r\nhello\r\n7;ext=1\r\n, world\r\n1\r\n!\r\n0\r\nTrailer: x\r\n\r\n".utf8)

  private func decode(splittingEvery size: Int) throws -> (String, Bool) {
    var decoder = ChunkedDecoder()
    var output: [UInt8] = []
    var offset = 0
    while offset < encoded.count {
      let end = min(encoded.count, offset + size)
      try encoded[offset..<end].withUnsafeBytes { bytes in
        try decoder.feed(bytes) { output.append(contentsOf: $0) }
      }
      offset = end
    }
    return (String(decoding: output, as: UTF8.self), decoder.isDone)
  }

  @Test(arguments: [1, 2, 3, 7, 100])
  func decodesWhateverTheSplit(size: Int) throws {
    let (text, done) = try decode(splittingEvery: size)
    #expect(text == "hello, world!")
    #expect(done)
  }

  @Test func rejectsABadChunkSize() {
    var decoder = ChunkedDecoder()
    #expect(throws: URLError.self) {
      try Array("zz\r\n".utf8).withUnsafeBytes { bytes in try decoder.feed(bytes) { _ in } }
    }
  }
}
