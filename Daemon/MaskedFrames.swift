import HummingbirdWebSocket
import NIOWebSocket

/// Closes the connection with 1002 (protocol error) at a client's data frame that is not
/// masked, as RFC 6455 section 5.1 asks of a server. A WebSocket extension that is not
/// negotiated, because that is where swift-websocket shows a frame with its mask; control
/// frames do not pass through extensions, and carry nothing but a ping's or a close's bytes.
struct MaskedFrames: WebSocketExtension {
  let name = "fetcher-masked-frames"

  func processReceivedFrame(
    _ frame: WebSocketFrame, context: WebSocketExtensionContext
  ) async throws -> WebSocketFrame {
    // The one public error swift-websocket answers with 1002.
    guard frame.maskKey != nil else { throw NIOWebSocketError.fragmentedControlFrame }
    return frame
  }

  func processFrameToSend(
    _ frame: WebSocketFrame, context: WebSocketExtensionContext
  ) async throws -> WebSocketFrame { frame }

  func shutdown() async {}
}
