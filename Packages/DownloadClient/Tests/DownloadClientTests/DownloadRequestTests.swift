import DownloadClient
import Foundation
import Testing

@Suite struct DownloadRequestTests {
  @Test func theRedactedRequestKeepsNoSecret() {
    let request = DownloadRequest(
      url: URL(string: "https://me:pw@h/f.iso")!,
      headers: ["Cookie": "c", "authorization": "a", "Proxy-Authorization": "p", "X-A": "1"])
    #expect(request.hasSecrets)
    #expect(request.redacted.url.absoluteString == "https://me:***@h/f.iso")
    #expect(request.redacted.headers == ["X-A": "1"])
    #expect(!request.redacted.hasSecrets)
    #expect(
      !DownloadRequest(url: URL(string: "https://h/f.iso")!, headers: ["X-A": "1"]).hasSecrets)
  }
}
