/// The rule a logged request line (`%r`) must follow to name a page: a method, a target and
/// at most a protocol after it (`GET /a HTTP/1.1`, or HTTP/0.9's `GET /a`). The method is
/// letters (and `-`, `_`); the target a path (`/…`) or an absolute URL (`http://host/…`,
/// `wss://host/…`).
/// What nginx writes for a connection that sent no request (`-`), and what scanners send
/// (binary junk, `GET /x Win 7 Professional HTTP/1.1`), does not read: such a line is still a
/// request, with its status and size, but it names no page.
package enum RequestLine {
  private static let space = UInt8(ascii: " ")

  /// `GET` as a little-endian word of three bytes.
  private static let get: UInt32 = 0x54_45_47

  /// Whether `bytes[method]` is a method: 1 to 24 letters, `-` or `_`. `GET`, as most lines
  /// have it, is one word compared.
  @inline(__always)
  package static func isMethod(_ bytes: UnsafeRawBufferPointer, _ method: Range<Int>) -> Bool {
    if method.count == 3 && method.lowerBound + 4 <= bytes.count {
      let word = UInt32(
        littleEndian: bytes.loadUnaligned(fromByteOffset: method.lowerBound, as: UInt32.self))
      if word & 0xFF_FFFF == get { return true }
    }
    guard !method.isEmpty, method.count <= 24 else { return false }
    for index in method {
      let byte = bytes[index]
      let isLetter = (byte | 0x20) &- UInt8(ascii: "a") < 26
      guard isLetter || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") else {
        return false
      }
    }
    return true
  }

  /// Whether `bytes[target]` (not empty) is a path or an absolute URL of the web's schemes:
  /// http and https, and the WebSocket, HTTP/2 and gRPC ones that load balancers log (`ws`,
  /// `wss`, `h2`, `h2c`, `grpc`, `grpcs`).
  @inline(__always)
  package static func isTarget(_ bytes: UnsafeRawBufferPointer, _ target: Range<Int>) -> Bool {
    guard let first = target.first else { return false }
    if bytes[first] == UInt8(ascii: "/") { return true }
    // The scheme's letters, lowercased, as one word (at most 5 of them).
    var scheme: UInt64 = 0
    var index = first
    while index < target.upperBound && bytes[index] != UInt8(ascii: ":") {
      guard index - first < 5 else { return false }
      scheme = scheme << 8 | UInt64(bytes[index] | 0x20)
      index += 1
    }
    guard index + 3 < target.upperBound, bytes[index + 1] == UInt8(ascii: "/"),
      bytes[index + 2] == UInt8(ascii: "/")
    else { return false }
    return webSchemes.contains(scheme)
  }

  private static let webSchemes: [UInt64] = [
    "http", "https", "ws", "wss", "h2", "h2c", "grpc", "grpcs",
  ]
  .map { $0.utf8.reduce(0) { $0 << 8 | UInt64($1) } }

  /// `HTTP/d.d` as a little-endian word, and the mask that keeps its digits' high halves.
  private static let version: UInt64 = 0x302E_302F_5054_5448
  private static let versionMask: UInt64 = 0xF0FF_F0FF_FFFF_FFFF

  /// Whether `bytes[rest]`, what follows the target, is at most one more token (the
  /// protocol) amid spaces. ` HTTP/1.1`, as nearly every line has it, is one word compared.
  @inline(__always)
  package static func isProtocol(_ bytes: UnsafeRawBufferPointer, _ rest: Range<Int>) -> Bool {
    if rest.count == 9 && bytes[rest.lowerBound] == space {
      let word = UInt64(
        littleEndian: bytes.loadUnaligned(fromByteOffset: rest.lowerBound + 1, as: UInt64.self))
      if word & versionMask == version { return true }
    }
    var index = rest.lowerBound
    while index < rest.upperBound && bytes[index] == space { index += 1 }
    while index < rest.upperBound && bytes[index] != space { index += 1 }
    while index < rest.upperBound && bytes[index] == space { index += 1 }
    return index == rest.upperBound
  }

  /// The method and the page of a request line: its first and second tokens, tokens being
  /// separated by runs of spaces; nil when it does not read as a request (`RequestLine`).
  package static func methodAndPage(_ request: UnsafeRawBufferPointer)
    -> (method: UnsafeRawBufferPointer, page: UnsafeRawBufferPointer)?
  {
    var index = 0
    let space = UInt8(ascii: " ")
    while index < request.count && request[index] == space { index += 1 }
    let methodStart = index
    while index < request.count && request[index] != space { index += 1 }
    let methodEnd = index
    while index < request.count && request[index] == space { index += 1 }
    let pageStart = index
    while index < request.count && request[index] != space { index += 1 }
    guard RequestLine.isMethod(request, methodStart..<methodEnd),
      RequestLine.isTarget(request, pageStart..<index),
      RequestLine.isProtocol(request, index..<request.count)
    else { return nil }
    return (
      UnsafeRawBufferPointer(rebasing: request[methodStart..<methodEnd]),
      UnsafeRawBufferPointer(rebasing: request[pageStart..<index])
    )
  }
}
