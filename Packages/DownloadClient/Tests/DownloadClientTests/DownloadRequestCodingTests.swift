import ChecksumTypes
import DownloadClient
import Foundation
import Testing

@Suite struct DownloadRequestCodingTests {
  /// Queues written before other digests than SHA-256 kept `expectedSHA256`.
  @Test func aRequestOfAnEarlierQueueKeepsItsSHA256() throws {
    let hex = String(repeating: "ab", count: 32)
    let json = #"{"url":"http://h/f","headers":{},"expectedSHA256":"\#(hex)"}"#
    let request = try JSONDecoder().decode(DownloadRequest.self, from: Data(json.utf8))
    #expect(request.expectedChecksum == FileChecksum(.sha256, hex: hex))
    let again = try JSONDecoder().decode(
      DownloadRequest.self, from: try JSONEncoder().encode(request))
    #expect(again == request)
  }
}
