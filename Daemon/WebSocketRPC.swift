import DownloadFeature
import Foundation
import HummingbirdWebSocket
import Synchronization

/// JSON-RPC over WebSocket: each message a call or a batch, answered in order, and the
/// notifications sent between the answers as they happen. A message is read up to the
/// request limit (Hummingbird closes the connection with 1009 past it, before reading the
/// rest); a client that does not read holds up its own answers (the next message is read
/// once the answer is written) and keeps only the newest notifications.
struct WebSocketRPC {
  let service: Aria2Service
  let caller: Aria2Service.Caller
  let limits: RPCServer.Limits
  let gate: WebSocketGate

  func serve(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async throws {
    guard gate.enter() else {
      try await outbound.close(.unexpectedServerError, reason: "too many WebSocket clients")
      return
    }
    defer { gate.leave() }
    let notifications = service.notificationStream()
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        for await notification in notifications {
          try await outbound.write(.text(String(decoding: notification, as: UTF8.self)))
        }
      }
      for try await message in inbound.messages(maxSize: limits.requestBytes) {
        let body =
          switch message {
          case .text(let text): Data(text.utf8)
          case .binary(let bytes): Data(bytes.readableBytesView)
          }
        if let answer = await service.answer(body, from: caller) {
          try await outbound.write(.text(String(decoding: answer, as: UTF8.self)))
        }
      }
      group.cancelAll()
    }
  }
}

/// Counts the WebSocket clients, against their limit.
final class WebSocketGate: Sendable {
  private let limit: Int
  private let count = Mutex(0)

  init(limit: Int) { self.limit = limit }

  /// Takes a place; false when all are taken.
  func enter() -> Bool {
    count.withLock { count in
      guard count < limit else { return false }
      count += 1
      return true
    }
  }

  /// Gives back a place.
  func leave() { count.withLock { $0 -= 1 } }
}
