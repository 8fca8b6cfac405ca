import Foundation
import HTTPClient
import Testing

@Suite struct HTTPDateTests {
  /// RFC 9110's example, in its three formats: 784111777 seconds after the epoch.
  @Test(arguments: [
    "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
    " Sun, 06 Nov 1994 08:49:37 GMT ",
  ])
  func theThreeFormatsOfRFC9110AreRead(text: String) {
    #expect(HTTPDate.parse(text)?.timeIntervalSince1970 == 784_111_777)
  }

  @Test func otherTextIsNoDate() {
    for text in ["", "yesterday", "1994-11-06T08:49:37Z", "Sun, 32 Nov 1994 08:49:37 GMT"] {
      #expect(HTTPDate.parse(text) == nil, "\(text)")
    }
  }
}
