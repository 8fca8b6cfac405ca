import Foundation
import HTTPClient
import Testing

@Suite struct ContentRangeTests {
  @Test func aByteRangeAndItsSizeAreRead() {
    #expect(ContentRange("bytes 400-999/1000") == ContentRange(start: 400, end: 999, size: 1000))
    #expect(ContentRange("Bytes 0-0/1")?.size == 1)
    #expect(ContentRange("bytes 0-9/*") == ContentRange(start: 0, end: 9, size: nil))
    let head = HTTPResponseHead(
      status: 206, headers: ["Content-Range": "bytes 5-6/7"], url: URL(string: "http://h/")!)
    #expect(head.contentRange?.start == 5)
  }

  @Test(arguments: [
    nil, "bytes */1000", "items 0-9/10", "bytes 9-0/10", "bytes 0-9", "bytes -1-9/10",
  ])
  func anythingElseIsNone(header: String?) {
    #expect(ContentRange(header) == nil)
  }
}
