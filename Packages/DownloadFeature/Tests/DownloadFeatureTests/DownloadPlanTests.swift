import DownloadClient
import DownloadFeature
import Foundation
import Metalink
import Testing

/// The one planner of the command line and the daemon: URLs, input-file entries, Metalinks.
@Suite struct DownloadPlanTests {
  private let plan = DownloadPlan(
    folder: URL(fileURLWithPath: "/data"), workingDirectory: URL(fileURLWithPath: "/home/u"),
    headers: ["Authorization": "Basic eA==", "X-Trace": "1"])

  @Test func aURLWithMirrorsAndANameInsideTheFolder() throws {
    let request = try plan.request("http://h/a.iso", mirrors: ["http://m/a.iso"], out: "x/a.iso")
    #expect(request.url.absoluteString == "http://h/a.iso")
    #expect(request.mirrors.map(\.absoluteString) == ["http://m/a.iso"])
    #expect(request.destination?.path == "/data/x/a.iso")
    #expect(request.headers == plan.headers)
    #expect(try plan.request("http://h/a", out: "/tmp/b").destination?.path == "/tmp/b")
    #expect(try plan.request("http://h/a").destination == nil)
  }

  @Test func somethingThatIsNoURLIsRefused() {
    #expect(throws: DownloadPlan.Refusal("not a URL: a b")) { try plan.request("a b") }
    #expect(throws: DownloadPlan.Refusal("not a URL: nothing")) {
      try plan.request("http://h/a", mirrors: ["nothing"])
    }
  }

  @Test func anEntrysDirIsRelativeToTheWorkingDirectory() throws {
    let entries = try InputFile(
      "http://h/a\n  dir=sub\nhttp://h/b\n  dir=sub\n  out=c\nhttp://h/d\n"
    )
    .entries
    let requests = try plan.requests(entries)
    #expect(requests[0].folder?.path == "/home/u/sub")
    #expect(requests[0].destination == nil)
    #expect(requests[1].destination?.path == "/home/u/sub/c")
    #expect(requests[2].folder == nil)
  }

  @Test func aMetalinksSecretsGoOnlyToItsOwnOrigin() throws {
    let metalink = Metalink(files: [
      Metalink.File(name: "a", urls: [Metalink.Mirror(url: URL(string: "http://h/a")!)]),
      Metalink.File(name: "b", urls: [Metalink.Mirror(url: URL(string: "http://other/b")!)]),
    ])
    let fromH = try plan.requests(metalink, origin: URL(string: "http://h/list.meta4"))
    #expect(fromH[0].headers == plan.headers)
    #expect(fromH[1].headers == ["X-Trace": "1"])
    let fromAFile = try plan.requests(metalink)
    #expect(fromAFile.map(\.headers) == [["X-Trace": "1"], ["X-Trace": "1"]])
    #expect(fromAFile[0].destination?.path == "/data/a")
  }
}
