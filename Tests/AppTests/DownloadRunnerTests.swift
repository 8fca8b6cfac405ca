import DownloadClient
import Foundation
import Synchronization
import Testing

@testable import fetcher

/// What `fetcher download` does on Ctrl-C, against a client double.
@Suite struct DownloadRunnerTests {
  private func download(_ id: String, _ status: DownloadStatus) -> Download {
    Download(
      id: DownloadID(id), request: DownloadRequest(url: URL(string: "http://h/\(id)")!),
      status: status, destination: nil)
  }

  /// Pausing one under way frees a slot that the engine gives to the next queued download,
  /// which would then send its request: so the waiting ones are paused first.
  @Test func ctrlCPausesTheWaitingDownloadsBeforeThoseUnderWay() async {
    let paused = Mutex<[String]>([])
    var client = DownloadClient.failing
    let downloads = [
      download("a", .running), download("b", .queued), download("c", .running),
      download("d", .retrying(attempt: 1)), download("e", .waitingForNetwork),
    ]
    client.list = { downloads }
    client.pause = { id in paused.withLock { $0.append(id.rawValue) } }
    let runner = DownloadRunner(client: client, output: DownloadOutput(json: true))
    await runner.pause(Set(downloads.map(\.id)))
    let order = paused.withLock { $0 }
    #expect(Set(order) == ["a", "b", "c", "d", "e"])
    #expect(Set(order.suffix(2)) == ["a", "c"])
  }
}
