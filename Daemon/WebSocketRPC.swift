import DownloadFeature
import FlyingFox
import Foundation

/// JSON-RPC over WebSocket: each text message a call or a batch, answered in order, and the
/// notifications sent between the answers as they happen.
struct WebSocketRPC: WSMessageHandler {
  let service: Aria2Service
  let gate: Gate

  func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
    let (messages, output) = AsyncStream<WSMessage>.makeStream()
    let notifications = service.notificationStream()
    let forwarding = Task {
      for await notification in notifications {
        output.yield(.text(String(decoding: notification, as: UTF8.self)))
      }
    }
    Task { [service, gate] in
      for await message in client {
        let body: Data
        switch message {
        case .text(let text): body = Data(text.utf8)
        case .data(let data): body = data
        case .close: continue
        }
        // FlyingFox reads a message whole before it is here: past the limit, it is not parsed.
        guard body.count <= gate.limits.requestBytes else {
          output.yield(WSMessage.close(WSCloseCode.messageTooBig))
          break
        }
        if let answer = await service.answer(body) {
          output.yield(.text(String(decoding: answer, as: UTF8.self)))
        }
      }
      forwarding.cancel()
      output.finish()
      gate.leave(.webSocket)
    }
    return messages
  }
}
