import Foundation

/// The head of an HTTP/1.1 response, parsed from the bytes before the first empty line.
struct HTTPHead: Equatable {
  var status: Int
  /// Header names as sent; look them up with `value(for:)`.
  var headers: [String: String]

  /// Parses `bytes` (the head without the final empty line), or returns nil when it is not
  /// an HTTP/1.x status line and headers.
  init?(_ bytes: some Collection<UInt8>) {
    let text = String(decoding: bytes, as: UTF8.self)
    var lines = text.components(separatedBy: "\r\n")
    let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
    guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."),
      let status = Int(statusLine[1]), (100...999).contains(status)
    else { return nil }
    self.status = status
    headers = [:]
    for line in lines where !line.isEmpty {
      guard let colon = line.firstIndex(of: ":") else { return nil }
      let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
      let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
      if let existing = headers[name] {
        headers[name] = existing + ", " + value
      } else {
        headers[name] = value
      }
    }
  }

  func value(for name: String) -> String? {
    headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
  }

  /// The body's length from `Content-Length`, when it is given and the body is not chunked.
  var contentLength: Int64? {
    guard !isChunked else { return nil }
    return value(for: "Content-Length").flatMap { Int64($0) }
  }

  var isChunked: Bool {
    value(for: "Transfer-Encoding")?.lowercased().contains("chunked") == true
  }
}

/// Decodes a `Transfer-Encoding: chunked` body fed in arbitrary pieces.
struct ChunkedDecoder {
  private enum Phase {
    case size
    case data(remaining: Int)
    case dataEnd
    case trailer
    case done
  }

  private var phase = Phase.size
  private var line: [UInt8] = []

  var isDone: Bool {
    if case .done = phase { return true }
    return false
  }

  /// Feeds `bytes`, handing each piece of decoded body to `emit`. Throws on malformed input.
  mutating func feed(_ bytes: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) -> Void)
    throws
  {
    var index = 0
    while index < bytes.count {
      switch phase {
      case .size, .dataEnd, .trailer:
        let byte = bytes[index]
        index += 1
        guard byte == UInt8(ascii: "\n") else {
          if byte != UInt8(ascii: "\r") { line.append(byte) }
          guard line.count < 1024 else { throw URLError(.cannotParseResponse) }
          continue
        }
        try endLine()
      case .data(let remaining):
        let count = min(remaining, bytes.count - index)
        emit(UnsafeRawBufferPointer(rebasing: bytes[index..<index + count]))
        index += count
        phase = remaining == count ? .dataEnd : .data(remaining: remaining - count)
      case .done:
        return
      }
    }
  }

  private mutating func endLine() throws {
    defer { line.removeAll(keepingCapacity: true) }
    switch phase {
    case .size:
      let hex = String(decoding: line, as: UTF8.self).split(separator: ";").first ?? ""
      guard let size = Int(hex.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
        throw URLError(.cannotParseResponse)
      }
      phase = size == 0 ? .trailer : .data(remaining: size)
    case .dataEnd:
      guard line.isEmpty else { throw URLError(.cannotParseResponse) }
      phase = .size
    case .trailer:
      if line.isEmpty { phase = .done }
    case .data, .done:
      break
    }
  }
}
