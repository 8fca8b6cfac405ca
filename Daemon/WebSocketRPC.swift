import DownloadRPCService
import Foundation
import HummingbirdWebSocket
import Synchronization

/// JSON-RPC over WebSocket: each message a call or a batch, answered in order, and the
/// notifications sent between the answers as they happen. A message is read up to the
/// request limit (Hummingbird closes the connection with 1009 past it, before reading the
/// rest); a client that does not read holds up its own answers (the next message is read
/// once the answer is written) and keeps only the newest notifications. A page of another
/// origin is sent notifications only once it has made a call with the secret: a page without
/// it learns nothing, not even when downloads start and end.
struct WebSocketRPC {
  let service: Aria2Service
  let caller: Aria2Service.Caller
  let limits: RPCServer.Limits
  let gate: WebSocketGate

  /// Serves a client whose upgrade came from a page of another origin when `foreign`.
  func serve(
    _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, foreign: Bool
  ) async throws {
    guard gate.enter() else {
      try await outbound.close(.unexpectedServerError, reason: "too many WebSocket clients")
      return
    }
    defer { gate.leave() }
    // The client's notifications, from the moment it may have them: those of an answer
    // written after it proved itself included.
    let (subscriptions, subscribe) = AsyncStream<AsyncStream<Data>>.makeStream()
    var subscribed = !foreign
    if subscribed { subscribe.yield(service.notificationStream()) }
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        for await notifications in subscriptions {
          for await notification in notifications {
            try await outbound.write(.text(String(decoding: notification, as: UTF8.self)))
          }
        }
      }
      for try await message in inbound.messages(maxSize: limits.requestBytes) {
        let body =
          switch message {
          case .text(let text): Data(text.utf8)
          case .binary(let bytes): Data(bytes.readableBytesView)
          }
        let (answer, authorized) = await service.checkedAnswer(body, from: caller)
        if authorized, !subscribed {
          subscribed = true
          subscribe.yield(service.notificationStream())
        }
        if let answer {
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
