import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TCP connection to the server under test that sends exactly the bytes given, as an
/// attacker's client would: no HTTP library tidies them. Its calls block on a thread of their
/// own, never one of Swift's pool, which the server under test answers on.
final class RawClient: @unchecked Sendable {
  let descriptor: Int32

  /// Connects to `port` on 127.0.0.1; reads wait at most `patience` for each piece.
  init(port: UInt16, patience: TimeInterval = 30) throws {
    #if canImport(Glibc)
      descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw RawClientError("socket: \(errno)") }
    var timeout = timeval(tv_sec: Int(patience), tv_usec: 0)
    setsockopt(
      descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(descriptor)
      throw RawClientError("connect: \(String(cString: strerror(errno)))")
    }
  }

  deinit { close(descriptor) }

  /// Sends all of `bytes`; false when the server closed the connection first.
  @discardableResult
  func write(_ bytes: Data) async -> Bool {
    await blocking { self.sendAll(bytes) }
  }

  @discardableResult
  func write(_ text: String) async -> Bool { await write(Data(text.utf8)) }

  private func sendAll(_ bytes: Data) -> Bool {
    bytes.withUnsafeBytes { buffer in
      var sent = 0
      while sent < buffer.count {
        let count = send(
          descriptor, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
        guard count > 0 else { return false }
        sent += count
      }
      return true
    }
  }

  /// What the server sends until it closes the connection (or stops sending for the
  /// patience given).
  func readToEnd() async -> Data {
    await blocking { self.receiveToEnd() }
  }

  private func receiveToEnd() -> Data {
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = recv(descriptor, &buffer, buffer.count, 0)
      guard count > 0 else { return received }
      received.append(contentsOf: buffer[0..<count])
    }
  }

  /// Whether the server closes the connection (or resets it) before the patience given runs
  /// out, dropping what it sends.
  func isClosedByServer() async -> Bool {
    await blocking {
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        let count = recv(self.descriptor, &buffer, buffer.count, 0)
        if count == 0 { return true }
        if count < 0 { return errno == ECONNRESET }
      }
    }
  }

  /// The first `count` bytes the server sends, or fewer when it closes first.
  func read(_ count: Int) async -> Data {
    await blocking { self.receive(count) }
  }

  private func receive(_ count: Int) -> Data {
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: count)
    while received.count < count {
      let got = recv(descriptor, &buffer, count - received.count, 0)
      guard got > 0 else { break }
      received.append(contentsOf: buffer[0..<got])
    }
    return received
  }

  /// A POST of `body` to `/jsonrpc` with `headers`, on a connection that closes after it.
  static func post(
    _ body: String, port: UInt16, headers: [String] = ["Host: 127.0.0.1"]
  ) async throws -> HTTPAnswer {
    let client = try RawClient(port: port)
    let head =
      (["POST /jsonrpc HTTP/1.1", "Content-Length: \(body.utf8.count)", "Connection: close"]
      + headers).joined(separator: "\r\n")
    await client.write(head + "\r\n\r\n" + body)
    return HTTPAnswer(await client.readToEnd())
  }

  /// The answer to a GET of `path`.
  static func get(_ path: String, port: UInt16) async throws -> HTTPAnswer {
    let client = try RawClient(port: port)
    await client.write("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    return HTTPAnswer(await client.readToEnd())
  }
}

/// An HTTP answer as received: its status, headers and body.
struct HTTPAnswer {
  var status = 0
  var headers: [String: String] = [:]
  var body = ""

  init(_ data: Data) {
    let text = String(decoding: data, as: UTF8.self)
    guard let end = text.range(of: "\r\n\r\n") else { return }
    let lines = text[..<end.lowerBound].components(separatedBy: "\r\n")
    status = Int(lines[0].split(separator: " ").dropFirst().first ?? "") ?? 0
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    body = String(text[end.upperBound...])
  }

  /// The body as JSON.
  var json: [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
  }
}

struct RawClientError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

extension RawClient {
  /// Upgrades the connection to a WebSocket at `/jsonrpc`; returns the server's answer's head.
  func upgradeToWebSocket(headers: [String] = ["Host: 127.0.0.1"]) async -> String {
    let head =
      [
        "GET /jsonrpc HTTP/1.1", "Upgrade: websocket", "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
      ] + headers
    await write(head.joined(separator: "\r\n") + "\r\n\r\n")
    var answer = Data()
    while !answer.ends(with: "\r\n\r\n") {
      let byte = await read(1)
      guard !byte.isEmpty else { break }
      answer.append(byte)
    }
    return String(decoding: answer, as: UTF8.self)
  }

  /// The head of a frame of `opcode` that says it carries `length` bytes, masked as a
  /// client's must be unless `masked` is false.
  static func frameHead(opcode: UInt8, length: Int, masked: Bool = true) -> Data {
    var head = Data([0x80 | opcode])
    let mask: UInt8 = masked ? 0x80 : 0
    if length < 126 {
      head.append(mask | UInt8(length))
    } else if length < 65536 {
      head.append(mask | 126)
      head.append(contentsOf: [UInt8(length >> 8), UInt8(length & 0xff)])
    } else {
      head.append(mask | 127)
      head.append(contentsOf: (0..<8).reversed().map { UInt8((length >> ($0 * 8)) & 0xff) })
    }
    if masked { head.append(contentsOf: [1, 2, 3, 4]) }
    return head
  }

  /// Sends `text` as one text frame.
  func writeText(_ text: String, masked: Bool = true) async {
    let payload = Array(text.utf8)
    let key: [UInt8] = [1, 2, 3, 4]
    let body = masked ? payload.enumerated().map { $0.element ^ key[$0.offset % 4] } : payload
    await write(Self.frameHead(opcode: 1, length: payload.count, masked: masked) + Data(body))
  }

  /// The next frame the server sends but its pings: its opcode and payload; nil when the
  /// connection ends.
  func readFrame() async -> (opcode: UInt8, payload: Data)? {
    while true {
      let head = await read(2)
      guard head.count == 2 else { return nil }
      var length = Int(head[head.startIndex + 1] & 0x7f)
      if length == 126 {
        length = await read(2).reduce(0) { $0 << 8 | Int($1) }
      } else if length == 127 {
        length = await read(8).reduce(0) { $0 << 8 | Int($1) }
      }
      let opcode = head[head.startIndex] & 0x0f
      let payload = await read(length)
      if opcode != 9 { return (opcode, payload) }
    }
  }
}

extension Data {
  func ends(with text: String) -> Bool {
    count >= text.utf8.count && suffix(text.utf8.count).elementsEqual(text.utf8)
  }
}

/// `body`'s result, computed on a thread of its own.
func blocking<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: body()) }.start()
  }
}
