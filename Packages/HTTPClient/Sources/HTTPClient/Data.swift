import Foundation
import Synchronization

extension HTTPClient {
  /// Sends `request` and returns the head and the whole body, for small answers. A body
  /// longer than `limit` bytes fails as a malformed response.
  public func data(for request: HTTPRequest, limit: Int = 64 << 20) async throws -> (
    HTTPResponseHead, Data
  ) {
    let collected = Mutex<(head: HTTPResponseHead?, body: Data, tooLong: Bool)>(
      (nil, Data(), false))
    try await stream(
      request,
      HTTPReceiver(
        head: { head in
          collected.withLock { $0.head = head }
          return true
        },
        body: { piece in
          collected.withLock { state in
            state.tooLong = state.body.count + piece.count > limit
            if !state.tooLong { state.body.append(piece) }
            return !state.tooLong
          }
        }))
    let (head, body, tooLong) = collected.withLock { ($0.head, $0.body, $0.tooLong) }
    if tooLong { throw HTTPError.malformedResponse("the body is longer than \(limit) bytes") }
    guard let head else { throw HTTPError.malformedResponse("no response head") }
    return (head, body)
  }
}
