import DownloadClient
import DownloadRPC
import Foundation

extension Aria2Service {
  /// Sends the notification of `event`, if it has one.
  func apply(_ event: DownloadEvent) {
    switch event {
    case .added, .progress: break
    case .statusChanged(let id, let status):
      switch status {
      case .running: notify("aria2.onDownloadStart", id)
      case .paused: notify("aria2.onDownloadPause", id)
      case .queued, .retrying, .waitingForNetwork, .completed, .failed: break
      }
    case .finished(let id, _, _), .unchanged(let id, _, _):
      notify("aria2.onDownloadComplete", id)
    case .failed(let id, _):
      notify("aria2.onDownloadError", id)
    case .removed(let id):
      notify(Self.stopNotification, id)
      said[id] = nil
    }
  }

  /// What a download removed before its end is said to be.
  static let stopNotification = "aria2.onDownloadStop"

  /// Sends notification `method` of `id`, unless it was the last said of it.
  private func notify(_ method: String, _ id: DownloadID) {
    guard said[id] != method else { return }
    said[id] = method
    // Written out, as a daemon of 10,000 files says 20,000 of them: a method name and a GID
    // of hex digits need no escaping.
    let gid = GID.of(id)
    notifications.send(
      gid.allSatisfy(\.isHexDigit)
        ? Data(#"{"jsonrpc":"2.0","method":"\#(method)","params":[{"gid":"\#(gid)"}]}"#.utf8)
        : RPCResponse.notification(method, [.object(["gid": .string(gid)])]).json)
  }
}
